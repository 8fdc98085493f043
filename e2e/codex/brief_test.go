package codex

import (
	"os/exec"
	"strings"
	"testing"
)

// codex-session-start's fleet brief with the real Codex: with another
// agent waiting on a human, who waits, the question and where to go
// reach the model in the first request, once.
func TestSessionStartBrief(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply { return say("hello") })
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "status", "--set", "busy")
	notify := `{"session_id":"b1","cwd":"/w/bob-proj","hook_event_name":"Notification","notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}`
	cmd := exec.Command(stBin, "hook", "notification")
	cmd.Dir, cmd.Env, cmd.Stdin = r.proj, append(append([]string(nil), r.env...), "ST_AGENT=bob"), strings.NewReader(notify)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bob's notification: %v\n%s", err, out)
	}
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("say hi")
	reqs := r.api.Requests()
	if len(reqs) == 0 || !strings.Contains(logs, "hook: SessionStart Completed") {
		t.Fatalf("no request, or SessionStart did not complete:\n%s", logs)
	}
	for _, want := range []string{"## st fleet: ", "1 need a person", "- bob waiting on a human (", "go to /w/bob-proj on "} {
		if n := strings.Count(reqs[0].Raw, want); n != 1 {
			t.Errorf("first request holds %d copies of %q, want 1", n, want)
		}
	}
}
