package codex

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/hooks"
)

var update = flag.Bool("update", false, "rewrite testdata/payloads from what Codex sends")

// recordedEvents are the Codex events a plain `codex exec` with one shell
// call fires; a recording hook saves each payload.
var recordedEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}

// TestHookPayloads records what Codex really sends each hook and checks
// that every field st's Codex hooks (and the doctor's samples) rely on is
// there. With -update it rewrites testdata/payloads; without it, the
// recorded files must have the same fields as today's Codex sends.
func TestHookPayloads(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		if n == 0 {
			return call("exec_command", map[string]any{"cmd": "echo hi", "login": false})
		}
		return say("done")
	})
	r.agent("alice")
	r.st("hooks", "install", "--for", "codex")
	rec := filepath.Join(r.dir, "payloads")
	if err := os.MkdirAll(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(r.codexHome, "hooks.json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.read(path)), &doc); err != nil {
		t.Fatal(err)
	}
	events := doc["hooks"].(map[string]any)
	for _, e := range recordedEvents {
		groups, _ := events[e].([]any)
		events[e] = append(groups, map[string]any{"hooks": []any{map[string]any{
			"type": "command", "command": "cat > " + filepath.Join(rec, e+".json"), "timeout": 5}}})
	}
	data, _ := json.MarshalIndent(doc, "", "  ")
	r.write(path, string(data))
	r.trustAll()
	r.codex("say hi in the shell")

	got := map[string]map[string]any{}
	for _, e := range recordedEvents {
		var p map[string]any
		if err := json.Unmarshal([]byte(r.read(filepath.Join(rec, e+".json"))), &p); err != nil {
			t.Fatalf("%s payload: %v", e, err)
		}
		got[e] = p
	}
	// Every field of st's samples (what doctor sends, what the hooks
	// were written against) is in what Codex sends.
	for event, sample := range map[string]string{"SessionStart": hooks.CodexSessionStart, "Stop": hooks.CodexStop} {
		var want map[string]any
		if err := json.Unmarshal(hooks.Sample(sample), &want); err != nil {
			t.Fatal(err)
		}
		for k := range want {
			if _, ok := got[event][k]; !ok {
				t.Errorf("Codex's %s payload lacks %q, which st's sample has", event, k)
			}
		}
	}
	// The fields st's hooks read.
	for _, e := range recordedEvents {
		for _, k := range []string{"session_id", "hook_event_name", "cwd", "transcript_path"} {
			if _, ok := got[e][k]; !ok {
				t.Errorf("Codex's %s payload lacks %q", e, k)
			}
		}
		if got[e]["hook_event_name"] != e {
			t.Errorf("%s payload names the event %v", e, got[e]["hook_event_name"])
		}
	}
	if got["SessionStart"]["source"] != "startup" {
		t.Errorf("SessionStart source %v, want startup", got["SessionStart"]["source"])
	}
	if _, ok := got["Stop"]["stop_hook_active"].(bool); !ok {
		t.Errorf("Stop payload has no boolean stop_hook_active")
	}

	for _, e := range recordedEvents {
		checkRecorded(t, r, e+".json", got[e])
	}
}

// checkRecorded records payload as testdata/payloads/name under -update
// (the scratch folder written as $TMP); otherwise it checks that Codex
// sends the fields recorded there.
func checkRecorded(t *testing.T, r *rig, name string, payload map[string]any) {
	t.Helper()
	file := filepath.Join("testdata", "payloads", name)
	if *update {
		data, _ := json.MarshalIndent(payload, "", "  ")
		text := strings.ReplaceAll(string(data), r.dir, "$TMP")
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var old map[string]any
	data, err := os.ReadFile(file)
	if err != nil {
		t.Errorf("%v (run with -update to record)", err)
		return
	}
	if err := json.Unmarshal(data, &old); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if a, b := keys(old), keys(payload); !slices.Equal(a, b) {
		t.Errorf("%s: recorded fields %v, Codex %s sends %v (run with -update)", file, a, codexVersion, b)
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
