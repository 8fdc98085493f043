package hooks

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/smalltalk-go/st/internal/yamlite"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// Config is what the hooks read from <ST_CONFIG>/config.yaml:
//
//	operator: ops                 # recipient of stop-failure messages
//	stop-failure:                 # tune the policy table per failure type
//	  rate_limit: {status: away, notify: true, priority: normal}
//	  max_output_tokens: {status: none}
//	  "*": {notify: false}        # the catch-all row
//
// status is a settable state or "none" (leave the status alone); notify
// says whether to message the operator; priority is low, normal or high.
// Invalid values are ignored one by one; a missing, unreadable or
// malformed file is the same as an empty one.
type Config struct {
	Operator    string
	StopFailure map[string]Tuning
}

// Tuning overrides parts of one policy row; nil fields keep the default.
type Tuning struct {
	State    *string // "" = no status change
	Notify   *bool
	Priority *string
}

// LoadConfig reads dir/config.yaml.
func LoadConfig(dir string) Config {
	cfg := Config{StopFailure: map[string]Tuning{}}
	if dir == "" {
		return cfg
	}
	data, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return cfg
	}
	return ParseConfig(data)
}

// ParseConfig reads the config file's bytes; see Config.
func ParseConfig(data []byte) Config {
	cfg := Config{StopFailure: map[string]Tuning{}}
	// yamlite refuses what it cannot read exactly as yaml.v3 would.
	root, err := yamlite.Parse(data)
	if err != nil || root == nil {
		return cfg
	}
	doc := root.StringMap()
	if op, ok := scalar(doc["operator"]); ok {
		cfg.Operator = op
	}
	table, _ := doc["stop-failure"].(map[string]any)
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
		cfg.StopFailure[typ] = tu
	}
	return cfg
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
