package hookkit

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// yamlV3DenyRule and yamlV3Config are ParseConfig as it was with yaml.v3,
// kept as the oracle for the yamlite one.
type yamlV3DenyRule struct {
	Tool    string `yaml:"tool"`
	Pattern string `yaml:"pattern"`
	Reason  string `yaml:"reason"`
}

func denyRulesFrom(v3 []yamlV3DenyRule) []DenyRule {
	if v3 == nil {
		return nil
	}
	rules := make([]DenyRule, len(v3))
	for i, r := range v3 {
		rules[i] = DenyRule(r)
	}
	return rules
}

func yamlV3Config(data []byte) Config {
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
			var rules []yamlV3DenyRule
			if v.Decode(&rules) == nil {
				c.Deny = denyRulesFrom(rules)
			}
		case "notify_operator_on":
			var list []string
			if v.Decode(&list) == nil {
				c.NotifyOperatorOn = list
			} else if s := ""; v.Decode(&s) == nil {
				c.NotifyOperatorOn = splitList(s)
			}
		}
	}
	return c
}

// FuzzParseConfigAsYAMLv3: where yamlite reads the file, the config is the one
// yaml.v3 gave.
func FuzzParseConfigAsYAMLv3(f *testing.F) {
	for _, s := range []string{
		"operator: ops\ncapture_prompts: yes\ncontext_window: 1.5\nsubagent_contract: |\n  x\n",
		"deny:\n  - tool: Bash\n    pattern: 'x'\n    reason: r\n  -\n  - {tool: Edit, other: [1]}\n",
		"deny: [~, {tool: 1}]\nnotify_operator_on: a, b\n",
		"notify_operator_on:\n  - a\n  - ~\noperator: ~\ncontext_window: -3\n",
		"deny: x\nnotify_operator_on: {a: b}\ncapture_prompts: 'true'\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := ParseConfig(data), yamlV3Config(data)
		if !reflect.DeepEqual(got, want) && !reflect.DeepEqual(got, DefaultConfig()) {
			t.Fatalf("ParseConfig(%q) = %#v, yaml.v3 gives %#v", data, got, want)
		}
	})
}
