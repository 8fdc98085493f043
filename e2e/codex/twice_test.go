package codex

import (
	"strings"
	"testing"

	"github.com/smalltalk-go/st/wiring"
)

// `st hooks path --for codex` prints the same hooks as `st hooks install
// --for codex` writes, for config.toml. Wired in both places, Codex runs
// both: install warns, doctor fails, and the count of runs proves why.
func TestHooksWiredTwice(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "message", "send", "alice", "-m", "ping", "--subject", "twice")
	fragment := r.st("hooks", "path", "--for", "codex")
	start := strings.Index(fragment, "[[hooks.SessionStart]]")
	end := strings.Index(fragment, "\n(read-only")
	r.writeConfig("\n" + fragment[start:end])
	out := r.st("hooks", "install", "--for", "codex")
	if !strings.Contains(out, "config.toml wires st's hooks too") {
		t.Errorf("install does not warn about config.toml:\n%s", out)
	}
	list := r.hooksList()
	seen := map[string]int{}
	for _, h := range list {
		seen[h.Command]++
	}
	if len(list) != 2*len(wiring.CodexEntries) || len(seen) != len(wiring.CodexEntries) {
		t.Errorf("Codex lists %+v, want st's commands from hooks.json and config.toml, each twice", list)
	}
	if w := strings.Join(r.hookWarnings, "\n"); !strings.Contains(w, "loading hooks from both") {
		t.Errorf("Codex's hooks/list warnings: %q", w)
	}
	r.trustAll()
	doc, code := r.stExit("hooks", "doctor")
	if code != 1 || !strings.Contains(doc, "st's hook is wired 2 times") {
		t.Errorf("doctor: exit %d\n%s", code, doc)
	}
	logs := r.codex("hello")
	n := strings.Count(r.api.Requests()[0].Raw, "## st inbox (1 unread)")
	t.Logf("SessionStart context arrived %d times; %d SessionStart runs", n, strings.Count(logs, "hook: SessionStart Completed"))
	if n != 2 {
		t.Errorf("the inbox list reached the model %d times, want 2 (Codex runs both wirings)", n)
	}
}
