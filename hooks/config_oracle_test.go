package hooks

import (
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// yamlV3Config is ParseConfig as it was with yaml.v3, kept as the oracle
// for the yamlite one.
func yamlV3Config(data []byte) Config {
	cfg := Config{StopFailure: map[string]Tuning{}}
	var doc map[string]any
	if yaml.Unmarshal(data, &doc) != nil {
		return cfg
	}
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

// FuzzParseConfigAsYAMLv3: where yamlite reads the file, the config is the one
// yaml.v3 gave.
func FuzzParseConfigAsYAMLv3(f *testing.F) {
	for _, s := range []string{
		"operator: night-shift\nstop-failure:\n  rate_limit: {status: busy, notify: true, priority: low}\n  server_error:\n    status: none\n    notify: false\n  \"*\": {notify: false}\n",
		"operator: 12\nstop-failure:\n  1: {status: away}\n",
		"operator: 1.50\nstop-failure:\n  x: {status: busy, ~: 1}\n  y: ~\n  z: {}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := ParseConfig(data), yamlV3Config(data)
		empty := Config{StopFailure: map[string]Tuning{}}
		if !reflect.DeepEqual(got, want) && !reflect.DeepEqual(got, empty) {
			t.Fatalf("ParseConfig(%q) = %#v, yaml.v3 gives %#v", data, got, want)
		}
	})
}
