package gemini

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// With more unread messages than the budget holds, SessionStart names the
// newest, says how many older ones it left out, and stays within the
// budget (8,000 bytes) in the request the model receives; the turn's
// AfterAgent then names the next ones in one retry turn, no message
// reaches the model twice, and Gemini CLI reports no hook error.
func TestBudgetKeepsNewestAndRetriesOnce(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	const n = 1000
	for i := range n {
		name := fmt.Sprintf("%d-aaaaaa.md", 1784627000000+i)
		r.write(filepath.Join(r.root, "alice", "inbox", name), fmt.Sprintf("---\nfrom: bob\nsubject: msg-%03d\n---\nhi\n", i))
	}
	r.st("hooks", "install", "--for", "gemini")
	r.trust()
	_, stderr := r.gemini("hello")
	reqs := r.api.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	first := reqs[0].Raw
	head := fmt.Sprintf("## st inbox (%d unread)", n)
	if !strings.Contains(first, head) || !strings.Contains(first, "older messages left out; list them with `st message ls`]") ||
		!strings.Contains(first, fmt.Sprintf("Subject: msg-%03d", n-1)) || strings.Contains(first, "Subject: msg-000") {
		t.Errorf("SessionStart's list does not keep the newest messages:\n%.2000s", first)
	}
	// The injected text, as the model got it: from the list's header to
	// its last (newest) line, JSON-escaped once in the request.
	last := fmt.Sprintf("Subject: msg-%03d", n-1)
	if i, j := strings.Index(first, head), strings.Index(first, last); i >= 0 && j > i {
		j += len(last)
		if size := j - i; size > 8000*11/10 {
			t.Errorf("the inbox list is %d bytes in the request, over the 8,000-byte budget", size)
		} else {
			t.Logf("the inbox list is %d bytes in the request", size)
		}
	}
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2 (the prompt, one AfterAgent retry)", len(reqs))
	}
	// The retry's request holds the whole conversation: each message is
	// in it at most once, and the retry named some the start left out.
	named, retried := 0, 0
	for i := range n {
		subject := fmt.Sprintf("Subject: msg-%03d", i)
		switch c := strings.Count(reqs[1].Raw, subject); c {
		case 0:
		case 1:
			named++
			if !strings.Contains(first, subject) {
				retried++
			}
		default:
			t.Errorf("msg-%03d reached the model %d times, want at most once", i, c)
		}
	}
	t.Logf("%d of %d messages named in the turn, %d of them by the AfterAgent retry", named, n, retried)
	if retried == 0 || named == n {
		t.Errorf("%d named, %d by the retry; want the retry to name some, not all", named, retried)
	}
	if errs := hookErrors(stderr); len(errs) > 0 {
		t.Errorf("Gemini CLI reported hook errors:\n%s", strings.Join(errs, "\n"))
	}
}
