package codex

import (
	"strings"
	"testing"
	"time"
)

// When the API fails (here 400, which Codex does not retry), codex exec
// fails with the API's message; st's SessionStart context was already in
// the failed request, and st's Stop hook announces nothing.
func TestAPIErrorStatus(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		return reply{Status: 400, ErrBody: `{"error":{"type":"invalid_request_error","message":"mock says no"}}`}
	})
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "message", "send", "alice", "-m", "hi", "--subject", "before the error")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	out, errOut, err := r.run(90*time.Second, codexBin, "exec", "--skip-git-repo-check", "-C", r.proj, "hello")
	logs := out + errOut
	t.Logf("codex exec against a 400:\n%s", logs)
	if err == nil {
		t.Errorf("codex exec succeeded against a 400")
	}
	if !strings.Contains(logs, "mock says no") {
		t.Errorf("Codex did not show the API's message")
	}
	reqs := r.api.Requests()
	if len(reqs) == 0 || !reqs[0].Contains("## st inbox (1 unread)") {
		t.Errorf("the failed request lacked st's SessionStart context")
	}
	if strings.Contains(logs, "hook: Stop Blocked") {
		t.Errorf("st's Stop hook blocked after an API error")
	}
}
