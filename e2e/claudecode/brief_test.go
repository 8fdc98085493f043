package claudecode

import (
	"strings"
	"testing"
)

// SessionStart's fleet brief: with another agent waiting on a human, the
// brief (who waits, the question, where to go) reaches the model in the
// first request, exactly once.
func TestSessionStartBrief(t *testing.T) {
	p := newProjectWith(t, func(n int, r *Request) Reply {
		return Text("hello")
	}, func(p *project) {
		p.st("init")
		p.st("hooks", "install", "--all")
	})
	p.stAs("bob", "status", "--set", "busy")
	notify := p.stCmd("bob", "hook", "notification")
	notify.Stdin = strings.NewReader(`{"session_id":"b1","cwd":"/w/bob-proj","hook_event_name":"Notification","notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}`)
	if out, err := notify.CombinedOutput(); err != nil {
		t.Fatalf("bob's notification: %v\n%s", err, out)
	}

	r := p.claude("say hi")
	p.checkClean(r)
	reqs := p.mock.Messages()
	if len(reqs) == 0 {
		t.Fatalf("the mock got no /v1/messages request; stdout:\n%s", r.stdout)
	}
	for _, want := range []string{"## st fleet: ", "1 need a person", "- bob waiting on a human (", "go to /w/bob-proj on "} {
		if n := copies(reqs[0], want); n != 1 {
			t.Errorf("first request holds %d copies of %q, want 1", n, want)
		}
		for i, req := range reqs[1:] {
			if n := copies(req, want); n > 1 {
				t.Errorf("request %d holds %d copies of %q", i+2, n, want)
			}
		}
	}
}
