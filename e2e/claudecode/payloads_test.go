package claudecode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// field is one payload field st reads, by JSON path, with the JSON kind
// it must have ("string", "number", "bool", "object").
type field struct{ path, kind string }

// fieldsRead lists, per Claude Code event, the payload fields st's hooks
// read (hooks/, internal/hookkit/payload.go: Payload, Input, NewEvent,
// FailureType, and the rules in run.go). Every hook reads session_id and
// hook_event_name.
var fieldsRead = map[string][]field{
	"SessionStart":       {{"source", "string"}},
	"SessionEnd":         {{"reason", "string"}},
	"UserPromptSubmit":   {{"prompt", "string"}, {"transcript_path", "string"}},
	"PreToolUse":         {{"tool_name", "string"}, {"tool_input", "object"}, {"cwd", "string"}},
	"PostToolUse":        {{"tool_name", "string"}, {"tool_input", "object"}, {"tool_response", "any"}, {"duration_ms", "number"}},
	"PostToolUseFailure": {{"tool_name", "string"}, {"tool_input", "object"}, {"error", "string"}, {"is_interrupt", "bool"}, {"duration_ms", "number"}},
	"SubagentStart":      {{"agent_id", "string"}, {"agent_type", "string"}},
	"Stop":               {},
	"StopFailure":        {{"error", "string"}, {"last_assistant_message", "string"}},
	"PreCompact":         {{"trigger", "string"}},
	"Notification":       {{"notification_type", "string"}, {"message", "string"}, {"cwd", "string"}},
	"SubagentStop":       {{"agent_id", "string"}, {"agent_type", "string"}},
	"PostCompact":        {{"trigger", "string"}},
}

// preferred picks which firing of an event is kept in testdata: the one
// that exercises most of what st reads (a Read for PreToolUse, so that
// tool_input.file_path is there).
var preferred = map[string]func(map[string]any) bool{
	"StopFailure":  func(m map[string]any) bool { return m["error"] == "server_error" },
	"PreToolUse":   func(m map[string]any) bool { return m["tool_name"] == "Read" },
	"PostToolUse":  func(m map[string]any) bool { return m["tool_name"] == "Read" },
	"Notification": func(m map[string]any) bool { return m["notification_type"] == "permission_prompt" },
}

// checkFields returns what is missing from, or of the wrong kind in, a
// payload of event.
func checkFields(event string, m map[string]any) []string {
	var bad []string
	for _, f := range append([]field{{"session_id", "string"}, {"hook_event_name", "string"}}, fieldsRead[event]...) {
		v, ok := m[f.path]
		if !ok {
			bad = append(bad, f.path+" missing")
			continue
		}
		if kind := jsonKind(v); f.kind != "any" && kind != f.kind {
			bad = append(bad, fmt.Sprintf("%s is a %s, want a %s", f.path, kind, f.kind))
		}
	}
	if m["hook_event_name"] != event {
		bad = append(bad, fmt.Sprintf("hook_event_name = %v", m["hook_event_name"]))
	}
	if event == "PreToolUse" && m["tool_name"] == "Read" {
		in, _ := m["tool_input"].(map[string]any)
		if _, ok := in["file_path"].(string); !ok {
			bad = append(bad, "tool_input.file_path missing on a Read")
		}
	}
	return bad
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

// checkPayloads checks every payload the recorder saved in this project
// against fieldsRead, and with ST_E2E_UPDATE_PAYLOADS=1 saves one per
// event, scrubbed, into testdata/payloads.
func (p *project) checkPayloads() {
	p.t.Helper()
	p.checkPayloadsOf(recorded...)
}

// checkPayloadsOf is checkPayloads for some events only: a test that
// records one event the others never see saves only that one.
func (p *project) checkPayloadsOf(events ...string) {
	p.t.Helper()
	for _, event := range events {
		all := p.payloads(event)
		for _, m := range all {
			if bad := checkFields(event, m); len(bad) > 0 {
				p.t.Errorf("Claude Code's %s payload lacks what st reads: %s\n%v", event, strings.Join(bad, "; "), m)
			}
		}
		if len(all) == 0 || os.Getenv("ST_E2E_UPDATE_PAYLOADS") != "1" {
			continue
		}
		keep := all[0]
		if pick := preferred[event]; pick != nil {
			keep = nil
			for _, m := range all {
				if pick(m) {
					keep = m
					break
				}
			}
		}
		if keep != nil {
			p.savePayload(event, keep)
		}
	}
}

var loopbackPort = regexp.MustCompile(`127\.0\.0\.1:\d+`)

// savePayload writes a payload with the scratch paths and the mock's
// port replaced by fixed stand-ins, as testdata/payloads/<name>.json:
// the event's name, or "<event>-<variant>" for a second firing of it
// kept for what it holds (StopFailure-529).
func (p *project) savePayload(name string, m map[string]any) {
	data, _ := json.MarshalIndent(m, "", "  ")
	base := filepath.Dir(p.dir)
	s := strings.ReplaceAll(string(data), p.home, "/home/user")
	s = strings.ReplaceAll(s, base, "/work")
	s = strings.ReplaceAll(s, strings.ReplaceAll(base, "/", "-"), "-work")
	s = loopbackPort.ReplaceAllString(s, "127.0.0.1:PORT")
	if err := os.MkdirAll(filepath.Join("testdata", "payloads"), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "payloads", name+".json"), []byte(s+"\n"), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// The payloads recorded from Claude Code 2.1.328 (testdata/payloads,
// refreshed by running the e2e tests with ST_E2E_UPDATE_PAYLOADS=1)
// carry every field st reads. This runs without node or claude.
func TestRecordedPayloads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "payloads", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		event, _, _ := strings.Cut(name, "-")
		have = append(have, name)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, known := fieldsRead[event]; !known {
			t.Errorf("%s: no fieldsRead entry for %s", f, event)
		}
		if bad := checkFields(event, m); len(bad) > 0 {
			t.Errorf("%s: %s", f, strings.Join(bad, "; "))
		}
		if strings.Contains(string(data), os.TempDir()+"/Test") {
			t.Errorf("%s: an unscrubbed scratch path", f)
		}
	}
	sort.Strings(have)
	for _, event := range []string{"PostToolUse", "PostToolUseFailure", "PreCompact", "PreToolUse", "SessionEnd",
		"SessionStart", "Stop", "StopFailure", "SubagentStart", "UserPromptSubmit", "Notification"} {
		if !contains(have, event) {
			t.Errorf("no recorded %s payload in testdata/payloads (have %v)", event, have)
		}
	}
}
