package hookkit

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/yamlite"
)

// DenyRule refuses a tool call: Tool is a tool name ("" or "*" for any,
// "A|B" for several) and Pattern a regular expression over the call's
// command or path.
type DenyRule struct {
	Tool    string
	Pattern string
	Reason  string
}

// Config is what the hooks read from $ST_CONFIG/config.yaml. Each key is
// read on its own: a key of the wrong type keeps its default and the
// others still count.
type Config struct {
	Operator         string
	CapturePrompts   bool
	ContextWindow    int
	SubagentContract string
	Deny             []DenyRule
	NotifyOperatorOn []string
}

// Defaults.
const (
	DefaultContextWindow = 200000
	DefaultOperator      = "operator"
)

// DefaultNotifyOperatorOn lists the notification types that reach the
// operator when the config does not say.
var DefaultNotifyOperatorOn = []string{"permission_prompt"}

// DefaultConfig is the config with no file.
func DefaultConfig() Config {
	return Config{ContextWindow: DefaultContextWindow, NotifyOperatorOn: DefaultNotifyOperatorOn}
}

// ParseConfig reads config.yaml's bytes. Invalid YAML or a non-mapping
// gives the defaults; so does YAML that yamlite cannot read exactly as
// yaml.v3 would.
func ParseConfig(data []byte) Config {
	c := DefaultConfig()
	doc, err := yamlite.Parse(data)
	if err != nil || doc == nil {
		return c
	}
	m := doc.Content
	for i := 0; i+1 < len(m); i += 2 {
		v := m[i+1]
		switch m[i].Value {
		case "operator":
			if s, ok := v.String(); ok {
				c.Operator = strings.TrimSpace(s)
			}
		case "capture_prompts":
			if b, ok := v.Bool(); ok {
				c.CapturePrompts = b
			}
		case "context_window":
			if n, ok := v.Int(); ok && n > 0 {
				c.ContextWindow = n
			}
		case "subagent_contract":
			if s, ok := v.String(); ok {
				c.SubagentContract = s
			}
		case "deny":
			if rules, ok := denyRules(v); ok {
				c.Deny = rules
			}
		case "notify_operator_on":
			if list, ok := v.Strings(); ok {
				c.NotifyOperatorOn = list
			} else if s, ok := v.String(); ok {
				c.NotifyOperatorOn = splitList(s)
			}
		}
	}
	return c
}

// denyRules decodes a sequence of {tool, pattern, reason} mappings, the
// way yaml.v3 decodes it into []DenyRule.
func denyRules(v *yamlite.Node) ([]DenyRule, bool) {
	if v.Kind == yamlite.Scalar && v.Tag == yamlite.NullTag {
		return nil, true
	}
	if v.Kind != yamlite.Sequence {
		return nil, false
	}
	rules := make([]DenyRule, 0, len(v.Content))
	for _, item := range v.Content {
		if item.Kind == yamlite.Scalar && item.Tag == yamlite.NullTag {
			continue
		}
		f := item.Fields()
		if f == nil {
			return nil, false
		}
		var r DenyRule
		for name, dst := range map[string]*string{"tool": &r.Tool, "pattern": &r.Pattern, "reason": &r.Reason} {
			if n := f[name]; n != nil {
				s, ok := n.String()
				if !ok {
					return nil, false
				}
				*dst = s
			}
		}
		rules = append(rules, r)
	}
	return rules, true
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		out = append(out, f)
	}
	return out
}

// LoadConfig reads <dir>/config.yaml; a missing or unreadable file gives
// the defaults.
func LoadConfig(dir string) Config {
	data, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return DefaultConfig()
	}
	return ParseConfig(data)
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

// Knobs are the environment settings of the hooks, already read.
type Knobs struct {
	FlushRemind    time.Duration // ST_FLUSH_REMIND_S, default 1800 s
	LargeRead      int64         // ST_LARGE_READ_BYTES, default 16384
	RetryBase      time.Duration // ST_RETRY_BASE_S, default 15 s
	RetryMax       time.Duration // ST_RETRY_MAX_S, default 600 s
	CapturePrompts bool          // ST_CAPTURE_PROMPTS=1
	HookChild      bool          // ST_HOOK_CHILD=1
}

// Knob defaults.
const (
	DefaultFlushRemind = 1800 * time.Second
	DefaultLargeRead   = 16384
	DefaultRetryBase   = 15 * time.Second
	DefaultRetryMax    = 600 * time.Second
)

// KnobsFrom reads the knobs through get (an environment lookup). Empty,
// malformed or negative values mean the default.
func KnobsFrom(get func(string) string) Knobs {
	return Knobs{
		FlushRemind:    seconds(get("ST_FLUSH_REMIND_S"), DefaultFlushRemind),
		LargeRead:      bytesKnob(get("ST_LARGE_READ_BYTES"), DefaultLargeRead),
		RetryBase:      seconds(get("ST_RETRY_BASE_S"), DefaultRetryBase),
		RetryMax:       seconds(get("ST_RETRY_MAX_S"), DefaultRetryMax),
		CapturePrompts: get("ST_CAPTURE_PROMPTS") == "1",
		HookChild:      get("ST_HOOK_CHILD") == "1",
	}
}

// seconds parses a count of seconds, fractions allowed.
func seconds(s string, def time.Duration) time.Duration {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || f > 1e7 || f != f {
		return def
	}
	return time.Duration(f * float64(time.Second))
}

func bytesKnob(s string, def int64) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 {
		return def
	}
	return n
}
