package codex

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// With more unread messages than the budget holds, SessionStart names
// the newest and says how many older ones it left out; the older ones
// are not taken as announced, so the turn's Stop names them. In the
// model's last request (which carries the whole conversation) every
// message is named exactly once, and Codex reports no failed hook.
func TestBudgetKeepsNewestAndNamesEveryMessageOnce(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	for i := range 200 {
		name := fmt.Sprintf("%d-aaaaaa.md", 1784627000000+i)
		r.write(filepath.Join(r.root, "alice", "inbox", name), fmt.Sprintf("---\nfrom: bob\nsubject: msg-%03d\n---\nhi\n", i))
	}
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("hello")
	reqs := r.api.Requests()
	first := reqs[0]
	if !first.Contains("## st inbox (200 unread)") || !first.Contains("older messages left out; list them with `st message ls`]") ||
		!first.Contains("Subject: msg-199") || first.Contains("Subject: msg-000") {
		t.Errorf("SessionStart's list does not keep the newest messages:\n%s", first.Raw)
	}
	last := reqs[len(reqs)-1]
	for i := range 200 {
		if n := strings.Count(last.Raw, fmt.Sprintf("Subject: msg-%03d", i)); n != 1 {
			t.Errorf("msg-%03d reached the model %d times, want once", i, n)
		}
	}
	if strings.Contains(logs, "Failed") {
		t.Errorf("Codex shows a failed hook: %s", failedLines(logs))
	}
	t.Logf("%d requests; Stop blocked %d times", len(reqs), strings.Count(logs, "hook: Stop Blocked"))
}
