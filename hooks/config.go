package hooks

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// Config is what the hooks read from <ST_CONFIG>/config.yaml:
//
//	operator: ops                 # recipient of operator messages
//	capture_prompts: true         # spool UserPromptSubmit payloads
//	context_window: 1000000       # tokens, for the context-fill warnings
//	subagent_contract: "…"        # replaces the default report contract
//	deny:                         # PreToolUse deny rules
//	  - {tool: Bash, pattern: 'git\s+push\s+.*--force', reason: "No force pushes."}
//	notify_operator_on: [permission_prompt, idle_prompt]
//	stop-failure:                 # tune the policy table per failure type
//	  rate_limit: {status: away, notify: true, priority: normal}
//	  max_output_tokens: {status: none}
//	  "*": {notify: false}        # the catch-all row
//	otel:                         # OpenTelemetry variables for session-end's trace export
//	  OTEL_EXPORTER_OTLP_ENDPOINT: http://localhost:4318
//	brief: auto                   # the fleet brief at session start: off, auto, always
//	stop_judge: ~/bin/judge       # a command judging whether a turn stopped early
//	stop_nudge_threshold: 0.7     # nudge above this probability
//	subagent_gate: ~/bin/judge    # a command judging whether a subagent only returned a plan
//	shell_undecided: allow        # let through a call st cannot tell writes a reserved file (default: refuse)
//
// Each key is read on its own: a key of the wrong type keeps its default
// and the others still count. In a stop-failure row, status is a
// settable state or "none" (leave the status alone), notify says whether
// to message the operator, priority is low, normal or high; invalid
// values are ignored one by one. A missing, unreadable or malformed file
// is the same as an empty one.
type Config struct {
	// OTel holds OpenTelemetry variables (OTEL_*) for the session-end
	// trace export: Claude Code removes OTEL_* from its hooks'
	// environment, so config.yaml's otel: mapping names them instead.
	OTel map[string]string

	Operator         string
	CapturePrompts   bool
	ContextWindow    int
	SubagentContract string
	Deny             []DenyRule
	NotifyOperatorOn []string
	StopFailure      map[string]Tuning
	// Brief is the fleet brief's mode at session start (brief.go):
	// BriefOff, BriefAuto (the default) or BriefAlways.
	Brief string
	// StopJudge is the stop judge's command line, run through the shell
	// ("" = no judge, no nudge); StopNudgeThreshold the probability above
	// which Stop nudges (stop_judge.go).
	StopJudge          string
	StopNudgeThreshold float64
	// SubagentGate is the subagent gate's command line, run as the stop
	// judge is ("" = no gate); above StopNudgeThreshold SubagentStop sends
	// the subagent back once (subagent.go).
	SubagentGate string
	// ShellUndecided is what the pre-tool hooks do with a call that names
	// a file another agent holds, or writes files st cannot see, when st
	// cannot tell whether it changes them (writes.go): "" refuses it,
	// ShellUndecidedAllow lets it through.
	ShellUndecided string
}

// ShellUndecidedAllow is config.yaml's shell_undecided: allow.
const ShellUndecidedAllow = "allow"

// DenyRule refuses a tool call: Tool is a tool name ("" or "*" for any,
// "A|B" for several) and Pattern a regular expression over the call's
// command or path.
type DenyRule struct {
	Tool    string `yaml:"tool"`
	Pattern string `yaml:"pattern"`
	Reason  string `yaml:"reason"`
}

// Tuning overrides parts of one stop-failure policy row; nil fields keep
// the default.
type Tuning struct {
	State    *string // "" = no status change
	Notify   *bool
	Priority *string
}

// Defaults.
const (
	DefaultContextWindow = 200000
	DefaultOperator      = "operator"
	DefaultNudgeAt       = 0.7
)

// The fleet brief's modes (config.yaml brief:).
const (
	BriefOff    = "off"
	BriefAuto   = "auto"
	BriefAlways = "always"
)

// DefaultNotifyOperatorOn lists the notification types that reach the
// operator when the config does not say.
var DefaultNotifyOperatorOn = []string{"permission_prompt"}

// DefaultConfig is the config with no file.
func DefaultConfig() Config {
	return Config{ContextWindow: DefaultContextWindow, NotifyOperatorOn: DefaultNotifyOperatorOn, StopFailure: map[string]Tuning{},
		Brief: BriefAuto, StopNudgeThreshold: DefaultNudgeAt}
}

// LoadConfig reads <dir>/config.yaml; a missing or unreadable file gives
// the defaults.
func LoadConfig(dir string) Config {
	if dir == "" {
		return DefaultConfig()
	}
	data, err := readConfigYAML(dir)
	if err != nil {
		return DefaultConfig()
	}
	return ParseConfig(data)
}

// readConfigYAML reads <dir>/config.yaml: a regular file (through
// symlinks) of at most layout.MaxConfigBytes.
func readConfigYAML(dir string) ([]byte, error) {
	return fsutil.ReadConfig(filepath.Join(dir, "config.yaml"), layout.MaxConfigBytes)
}

// ParseConfig reads config.yaml's bytes. Invalid YAML or a non-mapping
// gives the defaults.
func ParseConfig(data []byte) Config {
	c := DefaultConfig()
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return c
	}
	m := doc.Content[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		v := m[i+1]
		switch m[i].Value {
		case "operator":
			var s string
			if v.Decode(&s) == nil {
				c.Operator = strings.TrimSpace(s)
			}
		case "capture_prompts":
			var b bool
			if v.Decode(&b) == nil {
				c.CapturePrompts = b
			}
		case "context_window":
			var n int
			if v.Decode(&n) == nil && n > 0 {
				c.ContextWindow = n
			}
		case "subagent_contract":
			var s string
			if v.Decode(&s) == nil {
				c.SubagentContract = s
			}
		case "deny":
			var rules []DenyRule
			if v.Decode(&rules) == nil {
				c.Deny = rules
			}
		case "notify_operator_on":
			var list []string
			if v.Decode(&list) == nil {
				c.NotifyOperatorOn = list
			} else if s := ""; v.Decode(&s) == nil {
				c.NotifyOperatorOn = splitList(s)
			}
		case "brief":
			var s string
			if v.Decode(&s) == nil {
				switch s = strings.ToLower(strings.TrimSpace(s)); s {
				case BriefOff, BriefAuto, BriefAlways:
					c.Brief = s
				case "false", "no":
					c.Brief = BriefOff
				}
			}
		case "otel":
			var m map[string]string
			if v.Decode(&m) == nil {
				for k, val := range m {
					if strings.HasPrefix(k, "OTEL_") {
						if c.OTel == nil {
							c.OTel = map[string]string{}
						}
						c.OTel[k] = val
					}
				}
			}
		case "stop_judge":
			var s string
			if v.Decode(&s) == nil {
				c.StopJudge = strings.TrimSpace(s)
			}
		case "subagent_gate":
			var s string
			if v.Decode(&s) == nil {
				c.SubagentGate = strings.TrimSpace(s)
			}
		case "shell_undecided":
			var s string
			if v.Decode(&s) == nil && strings.EqualFold(strings.TrimSpace(s), ShellUndecidedAllow) {
				c.ShellUndecided = ShellUndecidedAllow
			}
		case "stop_nudge_threshold":
			var f float64
			if v.Decode(&f) == nil && f >= 0 && f <= 1 {
				c.StopNudgeThreshold = f
			}
		case "stop-failure":
			var table map[string]any
			if v.Decode(&table) == nil {
				c.StopFailure = parseTunings(table)
			}
		}
	}
	return c
}

// parseTunings reads the stop-failure table, row by row.
func parseTunings(table map[string]any) map[string]Tuning {
	tunings := map[string]Tuning{}
	for typ, v := range table {
		row, ok := v.(map[string]any)
		if !ok {
			continue
		}
		var tu Tuning
		if s, ok := scalar(row["status"]); ok {
			if s == "none" {
				s = ""
			}
			if s == "" || status.IsSettable(s) {
				tu.State = &s
			}
		}
		if b, ok := row["notify"].(bool); ok {
			tu.Notify = &b
		}
		if s, ok := scalar(row["priority"]); ok && message.ValidPriority(s) {
			tu.Priority = &s
		}
		tunings[typ] = tu
	}
	return tunings
}

// scalar returns a YAML scalar as text ("" and false for anything else).
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, x != ""
	case int, int64, uint64, float64:
		return fmt.Sprint(x), true
	}
	return "", false
}

func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

// Recipient is who operator messages go to: ST_OPERATOR (passed in),
// else the config's operator, else "operator" (st-compat §7.4).
func (c Config) Recipient(envOperator string) string {
	if envOperator != "" {
		return envOperator
	}
	if c.Operator != "" {
		return c.Operator
	}
	return DefaultOperator
}
