package gemini

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/payloads from what the client sends")

// recordedEvents are the events whose payloads the test records: those
// st wires, and BeforeAgent.
var recordedEvents = []string{"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"}

// The payloads Gemini CLI sends each event st wires have the fields the
// recorded ones have (testdata/payloads, which the hooks' samples and
// the testscripts copy): a recorder hook runs next to st's for each, on
// a turn that writes a file. With -update the recordings are rewritten.
func TestPayloadsAsRecorded(t *testing.T) {
	t.Parallel()
	var r *rig
	r = newRig(t, func(n int, req apiRequest) reply {
		if n > 0 {
			return say("done")
		}
		return call("write_file", map[string]any{"file_path": filepath.Join(r.proj, "notes.txt"), "content": "hi\n"})
	})
	r.st("hooks", "install", "--for", "gemini")
	rec := filepath.Join(r.dir, "rec")
	script := filepath.Join(r.dir, "record.sh")
	r.write(script, "#!/bin/sh\ncat > \""+rec+"/$1.json\"\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	settingsPath := filepath.Join(r.home, ".gemini", "settings.json")
	var settings map[string]any
	if err := json.Unmarshal([]byte(r.read(settingsPath)), &settings); err != nil {
		t.Fatal(err)
	}
	byEvent := settings["hooks"].(map[string]any)
	for _, ev := range recordedEvents {
		groups, _ := byEvent[ev].([]any)
		byEvent[ev] = append(groups, map[string]any{"hooks": []any{map[string]any{"type": "command", "command": script + " " + ev}}})
	}
	data, _ := json.MarshalIndent(settings, "", "  ")
	r.write(settingsPath, string(data))
	r.trust()
	r.gemini("write notes.txt")

	for _, ev := range recordedEvents {
		got, err := os.ReadFile(filepath.Join(rec, ev+".json"))
		if err != nil {
			t.Errorf("%s: no payload recorded: %v", ev, err)
			continue
		}
		want := filepath.Join("testdata", "payloads", ev+".json")
		if *update {
			norm := strings.NewReplacer(r.home, "/home/user", r.proj, "/home/user/proj").Replace(string(got))
			if err := os.WriteFile(want, []byte(norm), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(want)
		if err != nil {
			t.Errorf("%s: %v (run with -update)", ev, err)
			continue
		}
		if g, w := keys(t, got), keys(t, old); !slices.Equal(g, w) {
			t.Errorf("%s: the client sends %v, recorded %v", ev, g, w)
		}
	}
}

// keys lists a payload's members, and its tool_input's as tool_input.*.
func keys(t *testing.T, data []byte) []string {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("payload is not a JSON object: %v: %s", err, data)
	}
	var out []string
	for k, v := range m {
		out = append(out, k)
		if k == "tool_input" {
			for ik := range v.(map[string]any) {
				out = append(out, "tool_input."+ik)
			}
		}
	}
	slices.Sort(out)
	return out
}
