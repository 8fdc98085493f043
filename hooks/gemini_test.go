package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGeminiMapping: each Gemini CLI event st wires answers in the form
// Gemini CLI reads, with the same text the Claude Code hooks give.
func TestGeminiMapping(t *testing.T) {
	opt := testOptions(t)
	repo := bobHolds(t, opt, "src/**")
	writeFile(t, filepath.Join(opt.Root, "alice", "context", "now.md"), "# now\nworking on the lexer\n")
	sessionOpt := opt
	sessionOpt.Now = time.Now // now.md is fresh by the real clock
	tool := func(name string, input map[string]any) []byte {
		p, _ := json.Marshal(map[string]any{"session_id": "g1", "hook_event_name": "BeforeTool", "cwd": repo,
			"tool_name": name, "tool_input": input})
		return p
	}
	claude := string(Run(PreToolUse, []byte(`{"session_id":"c1","cwd":"`+repo+`","tool_name":"Edit","tool_input":{"file_path":"src/a.go"}}`), opt).Stdout)
	var claudeOut struct {
		HookSpecificOutput struct{ PermissionDecisionReason string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(claude), &claudeOut); err != nil || claudeOut.HookSpecificOutput.PermissionDecisionReason == "" {
		t.Fatalf("Claude Code's refusal: %v: %s", err, claude)
	}
	sameReason, _ := json.Marshal(map[string]string{"decision": "deny", "reason": claudeOut.HookSpecificOutput.PermissionDecisionReason})
	cases := []struct {
		name, event string
		payload     []byte
		want        string // stdout, or a part of it after "~"
	}{
		{"write_file under a reservation", GeminiBeforeTool, tool("write_file", map[string]any{"file_path": filepath.Join(repo, "src/a.go"), "content": "x"}), string(sameReason) + "\n"},
		{"replace, relative path", GeminiBeforeTool, tool("replace", map[string]any{"file_path": "src/a.go", "old_string": "a", "new_string": "b"}), string(sameReason) + "\n"},
		{"write_file elsewhere", GeminiBeforeTool, tool("write_file", map[string]any{"file_path": filepath.Join(repo, "README"), "content": "x"}), ""},
		{"a tool that does not edit", GeminiBeforeTool, tool("read_file", map[string]any{"file_path": filepath.Join(repo, "src/a.go")}), ""},
		{"session start", GeminiSessionStart, Sample(GeminiSessionStart), `~"additionalContext":`},
		{"session start carries now.md", GeminiSessionStart, Sample(GeminiSessionStart), "~working on the lexer"},
		{"end of turn, nothing new", GeminiAfterAgent, Sample(GeminiAfterAgent), ""},
		{"waiting on a human", GeminiNotification, Sample(GeminiNotification), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := opt
			if c.event == GeminiSessionStart {
				o = sessionOpt
			}
			r := Run(c.event, c.payload, o)
			got := string(r.Stdout)
			if part, ok := strings.CutPrefix(c.want, "~"); ok {
				if !strings.Contains(got, part) {
					t.Errorf("stdout = %q, want it to contain %q", got, part)
				}
			} else if got != c.want {
				t.Errorf("stdout = %q\nwant     %q", got, c.want)
			}
			if r.Code != 0 {
				t.Errorf("exit %d", r.Code)
			}
			if err := CheckOutput(c.event, r.Stdout); err != nil {
				t.Errorf("Gemini CLI would not take it: %v", err)
			}
		})
	}
	// The notification is logged as a permission prompt, which the board
	// shows as waiting on a human.
	log, err := os.ReadFile(filepath.Join(opt.Root, "alice", "events", Sample0Session(t)+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"event":"Notification"`) || !strings.Contains(string(log), `"type":"permission_prompt"`) {
		t.Errorf("event log:\n%s", log)
	}
}

// Sample0Session is the session id of the recorded Gemini CLI samples.
func Sample0Session(t *testing.T) string {
	var p struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(Sample(GeminiNotification), &p); err != nil || p.SessionID == "" {
		t.Fatalf("sample: %v", err)
	}
	return p.SessionID
}

// TestGeminiArrivalsOnce: a message that arrives during a turn is
// announced at AfterAgent once, not again on the retry turn nor at the
// next AfterAgent.
func TestGeminiArrivalsOnce(t *testing.T) {
	opt := testOptions(t)
	r := Run(GeminiSessionStart, Sample(GeminiSessionStart), opt)
	if r.Code != 0 {
		t.Fatalf("session start: %+v", r)
	}
	writeFile(t, filepath.Join(opt.Root, "alice", "inbox", "1784628001000-lunchx.md"), "---\nfrom: bob\nsubject: lunch?\n---\nhi\n")
	first := string(Run(GeminiAfterAgent, Sample(GeminiAfterAgent), opt).Stdout)
	if !strings.Contains(first, `"decision": "block"`) || !strings.Contains(first, "lunchx") {
		t.Fatalf("first AfterAgent = %q, want the arrival as a block", first)
	}
	retry := strings.Replace(string(Sample(GeminiAfterAgent)), `"stop_hook_active": false`, `"stop_hook_active": true`, 1)
	if out := Run(GeminiAfterAgent, []byte(retry), opt).Stdout; len(out) != 0 {
		t.Errorf("retry turn's AfterAgent = %q, want nothing", out)
	}
	if out := Run(GeminiAfterAgent, Sample(GeminiAfterAgent), opt).Stdout; len(out) != 0 {
		t.Errorf("next AfterAgent = %q, want nothing", out)
	}
}

// FuzzGeminiAnswer reads arbitrary tool inputs and hook outputs the way
// gemini-before-tool and the doctor do: no panic, and every refusal st
// builds passes the check of what Gemini CLI accepts.
func FuzzGeminiAnswer(f *testing.F) {
	f.Add([]byte(`{"file_path":"src/a.go","content":"x"}`), "src/a.go is reserved")
	f.Add([]byte(`{"file_path":7}`), "")
	f.Add([]byte(`[1,2]`), "\x00\n\"")
	f.Fuzz(func(t *testing.T, input []byte, reason string) {
		client(Gemini).EditPath(input)
		_ = checkGemini(input) // any answer: it may refuse it, never panic
		if strings.TrimSpace(reason) == "" {
			return
		}
		if err := checkGemini(GeminiDeny(reason)); err != nil {
			t.Fatalf("st's own refusal fails the check: %v", err)
		}
	})
}
