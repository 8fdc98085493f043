package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The Notification hook against the real client: an interactive Claude
// Code in the default permission mode is asked by the model to run a
// Bash command nobody allowed; it shows the permission prompt and, a few
// seconds later, fires Notification (permission_prompt). st logs it,
// tells the operator and shows the agent as waiting on a human until
// something else happens in the session. Only the interactive client
// fires it: -p and stream-json runs never notify.
func TestNotificationPermissionPrompt(t *testing.T) {
	tmuxBinary(t)
	const prompt, command = "RUN-SOMETHING-RISKY", "touch st-notify-marker"
	p := newProject(t, func(n int, r *Request) Reply {
		if strings.Contains(r.LastUser(), prompt) && !r.HasToolResult("toolu_perm") {
			return ToolUse("toolu_perm", "Bash", map[string]any{"command": command, "description": "make a marker"})
		}
		return Text("ok")
	})
	p.seedConfig()
	u := p.startTUI("--permission-mode", "default")

	u.waitFor("the input box", 30*time.Second, func() bool { return strings.Contains(u.screen(), "? for shortcuts") })
	u.keys(prompt)
	u.waitFor("the typed prompt on screen", 10*time.Second, func() bool { return strings.Contains(u.screen(), prompt) })
	u.keys("Enter")
	u.waitFor("the permission prompt for the Bash command", 30*time.Second, func() bool {
		s := u.screen()
		return strings.Contains(s, command) && strings.Contains(s, "Do you want to proceed?")
	})
	asked := time.Now()
	u.waitFor("st's log of the Notification", 30*time.Second, func() bool {
		return len(find(p.events(), "Notification")) > 0
	})
	t.Logf("Notification logged %v after the permission prompt showed", time.Since(asked).Round(100*time.Millisecond))

	note := find(p.events(), "Notification")[0]
	if note.Type != "permission_prompt" {
		t.Errorf("logged Notification type %q, want permission_prompt", note.Type)
	}
	if note.Advice != "operator" {
		t.Errorf("logged Notification advice %q, want operator (the operator was not told)", note.Advice)
	}
	msgs := p.inbox("operator")
	if len(msgs) != 1 || !strings.Contains(msgs[0], "agent alice waits") ||
		!strings.Contains(msgs[0], "Agent alice is waiting on a human (permission_prompt).") ||
		!strings.Contains(msgs[0], "Session: "+note.Session) || !strings.Contains(msgs[0], "Directory: "+p.dir) {
		t.Errorf("operator inbox after the permission prompt, want one note from alice on session %s:\n%s",
			note.Session, strings.Join(msgs, "\n---\n"))
	}
	if w := p.waiting(); w == nil || w.Type != "permission_prompt" || w.Session != note.Session {
		t.Errorf("st agents --json --enrich shows alice waiting on %+v, want a permission_prompt on session %s", w, note.Session)
	}
	p.checkPayloadsOf("Notification")
	for _, m := range p.payloads("Notification") {
		if m["notification_type"] != "permission_prompt" {
			t.Errorf("recorded Notification of type %v, want permission_prompt", m["notification_type"])
		}
	}

	// Deny, then leave: the session is no longer waiting on anyone.
	u.keys("Escape")
	u.waitFor("the permission prompt gone", 10*time.Second, func() bool {
		return !strings.Contains(u.screen(), "Do you want to proceed?")
	})
	u.keys("/exit")
	u.waitFor("the typed /exit on screen", 10*time.Second, func() bool { return strings.Contains(u.screen(), "/exit") })
	u.keys("Enter")
	u.waitFor("st's log of SessionEnd", 30*time.Second, func() bool {
		return len(find(p.events(), "SessionEnd")) > 0
	})
	if _, err := os.Stat(filepath.Join(p.dir, "st-notify-marker")); err == nil {
		t.Errorf("the denied command ran")
	}
	if w := p.waiting(); w != nil {
		t.Errorf("st agents --json --enrich shows alice waiting on %+v after the session ended", w)
	}
	if errs := (&run{debug: u.debug()}).hookErrors(); len(errs) > 0 {
		t.Errorf("Claude Code reported hook failures:\n%s", strings.Join(errs, "\n"))
	}
	// Claude Code ran st's hook for the notification and took its answer.
	ran := regexp.MustCompile(`Notification:permission_prompt \[\S*/st hook notification\] completed with status 0`)
	if !ran.MatchString(u.debug()) {
		t.Errorf("the debug log does not show st's Notification hook completing with status 0")
	}
	if hosts := p.trap.Hosts(); len(hosts) > 0 {
		t.Errorf("claude tried to leave loopback: %v", hosts)
	}
}

// waiting is what `st agents --json --enrich` says the project's agent
// waits on, nil when nothing.
func (p *project) waiting() *struct{ Session, Type string } {
	p.t.Helper()
	var list []struct {
		Identity string
		Waiting  *struct{ Session, Type string }
	}
	if err := json.Unmarshal([]byte(p.st("agents", "--json", "--enrich")), &list); err != nil {
		p.t.Fatalf("st agents --json --enrich: %v", err)
	}
	for _, a := range list {
		if a.Identity == p.agent {
			return a.Waiting
		}
	}
	p.t.Fatalf("st agents --json --enrich does not list %s", p.agent)
	return nil
}
