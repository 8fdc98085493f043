package codex

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// With more unread messages than the budget holds, SessionStart names
// the newest and says how many older ones it left out; the older ones
// are not taken as announced, so the turn's Stop names the next ones, but
// it continues the turn only once: with 1,000 unread messages the turn
// makes two model requests (it made seven when every Stop blocked again),
// the continuation says how many are left and how to list them, no
// message is named twice, and Codex reports no failed hook.
func TestBudgetKeepsNewestAndContinuesOnce(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	const n = 1000
	for i := range n {
		name := fmt.Sprintf("%d-aaaaaa.md", 1784627000000+i)
		r.write(filepath.Join(r.root, "alice", "inbox", name), fmt.Sprintf("---\nfrom: bob\nsubject: msg-%03d\n---\nhi\n", i))
	}
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("hello")
	reqs := r.api.Requests()
	t.Logf("%d requests; Stop blocked %d times", len(reqs), strings.Count(logs, "hook: Stop Blocked"))
	first := reqs[0]
	if !first.Contains(fmt.Sprintf("## st inbox (%d unread)", n)) || !first.Contains("older messages left out; list them with `st message ls`]") ||
		!first.Contains(fmt.Sprintf("Subject: msg-%03d", n-1)) || first.Contains("Subject: msg-000") {
		t.Errorf("SessionStart's list does not keep the newest messages:\n%.2000s", first.Raw)
	}
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2 (the prompt, one Stop continuation)", len(reqs))
	}
	last := reqs[1]
	if !regexp.MustCompile(`\[\d+ older messages left out; list them with ` + "`st message ls`" + `\]`).MatchString(last.Raw) {
		t.Errorf("the continuation does not say how many are left and how to list them:\n%.3000s", last.Raw)
	}
	named := 0
	for i := range n {
		switch c := strings.Count(last.Raw, fmt.Sprintf("Subject: msg-%03d", i)); c {
		case 0:
		case 1:
			named++
		default:
			t.Errorf("msg-%03d reached the model %d times, want at most once", i, c)
		}
	}
	if named == 0 || named == n {
		t.Errorf("%d of %d messages named in the turn; want some, not all", named, n)
	}
	if strings.Contains(logs, "Failed") {
		t.Errorf("Codex shows a failed hook: %s", failedLines(logs))
	}
}
