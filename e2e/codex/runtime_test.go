package codex

import (
	"strings"
	"testing"
)

// The hooks at run time as the real Codex sees them: the
// per-agent Stop cursor and the silent exit without an agent.

// The first Stop must not announce again what SessionStart just listed.
func TestStopDoesNotRepeatSessionStart(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "message", "send", "alice", "-m", "already listed", "--subject", "old")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("hello")
	reqs := r.api.Requests()
	if !reqs[0].Contains("## st inbox (1 unread)") {
		t.Fatalf("SessionStart did not list the message")
	}
	if strings.Contains(logs, "hook: Stop Blocked") {
		t.Fatalf("the first Stop announced again what SessionStart listed:\n%s", logs)
	}
	if len(reqs) != 1 {
		t.Errorf("%d model requests, want 1", len(reqs))
	}
}

// With no agent set, the hooks must exit 0 and say nothing, so Codex
// shows no failed hook.
func TestHooksWithoutAgentAreSilent(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	r.setEnv("ST_AGENT=")
	logs := r.codex("hello")
	if !strings.Contains(logs, "hook: SessionStart") {
		t.Fatalf("SessionStart did not run:\n%s", logs)
	}
	if strings.Contains(logs, "Failed") {
		t.Fatalf("Codex shows a failed hook: %s", failedLines(logs))
	}
}

func failedLines(logs string) string {
	var out []string
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "Failed") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "; ")
}
