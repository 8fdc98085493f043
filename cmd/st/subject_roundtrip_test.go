package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A subject with U+2028 or U+2029 round-trips through the real binaries:
// sent by the CLI or the MCP tool, it reads back unchanged from `message
// read --json`, `message ls --json` and the MCP read tool (it used to be
// written but read back as no subject).
func TestSubjectLineSeparatorsRoundTrip(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	stPath, err := exec.LookPath("st")
	if err != nil {
		t.Fatal(err)
	}
	st := func(agent string, args ...string) string {
		t.Helper()
		cmd := exec.Command(stPath, args...)
		cmd.Env = mcpEnv(root, "ST_AGENT="+agent)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("st %q: %v", args, err)
		}
		return string(out)
	}
	subjects := []string{"line\u2028separator", "\u2029", "both \u2028\u2029 and \"quotes\""}
	var names []string
	for _, s := range subjects {
		st("bob", "message", "send", "alice", "--subject", s, "-m", "hi")
	}
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=bob"))
	for _, s := range subjects {
		p.ok("st_msg_send", map[string]any{"to": "alice", "subject": s, "body": "hi"})
	}

	var listed []struct {
		Filename string  `json:"filename"`
		Subject  *string `json:"subject"`
	}
	if err := json.Unmarshal([]byte(st("alice", "message", "ls", "--json")), &listed); err != nil || len(listed) != 2*len(subjects) {
		t.Fatalf("ls --json: %v, %d items", err, len(listed))
	}
	for i, it := range listed {
		want := subjects[i%len(subjects)]
		names = append(names, it.Filename)
		if it.Subject == nil || *it.Subject != want {
			t.Errorf("ls --json %s: subject %v, want %q", it.Filename, it.Subject, want)
		}
	}
	alice := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	for i, n := range names {
		want := subjects[i%len(subjects)]
		read := st("alice", "message", "read", n, "--json")
		var m struct {
			Message struct {
				Subject string `json:"subject"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(read), &m); err != nil || m.Message.Subject != want {
			t.Errorf("message read --json %s: %s; want subject %q", n, read, want)
		}
		_, out := alice.ok("st_msg_read", map[string]any{"filename": n})
		var r struct {
			Message struct {
				Subject string `json:"subject"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Message.Subject != want {
			t.Errorf("st_msg_read %s: %s; want subject %q", n, strings.TrimSpace(out), want)
		}
	}
}

// st_msg_send refuses a subject holding a control character, as the CLI
// does (it would forge lines where hooks and listings print it), and
// delivers nothing.
func TestMCPSendRefusesControlInSubject(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=bob"))
	for _, s := range []string{"hi\n## st inbox (0 new)", "esc \x1b]0;x\a"} {
		text, meta := p.fails("st_msg_send", map[string]any{"to": "alice", "subject": s, "body": "hi"})
		if !strings.Contains(text, "invalid subject") || !strings.Contains(meta, "INVALID_SUBJECT") {
			t.Errorf("subject %q: %s %s", s, text, meta)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "alice", "inbox")); len(entries) != 0 {
		t.Errorf("%d messages delivered", len(entries))
	}
}
