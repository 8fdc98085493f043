package codex

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/wiring"
)

// Codex loads .codex/ from the repository root down to the working
// folder. From a subfolder, doctor sees the root's project hooks as
// Codex does (trust included); a second project install in the
// subfolder warns, Codex then lists st's hooks twice, and doctor fails.
func TestNestedCodexFolders(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	if out, err := exec.Command("git", "init", "-q", r.proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	r.st("hooks", "install", "--for", "codex", "--scope", "project")
	r.proj = filepath.Join(r.proj, "a", "b")
	r.write(filepath.Join(r.proj, "README"), "a subfolder\n")
	list := r.hooksList()
	if len(list) != len(wiring.CodexEntries) {
		t.Fatalf("from the subfolder Codex lists %+v, want the root's st hooks", list)
	}
	doc, code := r.stExit("hooks", "doctor")
	if code != 1 || strings.Contains(doc, "no st hooks found") || !strings.Contains(doc, list[0].Key) {
		t.Errorf("doctor from the subfolder: exit %d\n%s", code, doc)
	}
	r.trustAll()
	doc, code = r.stExit("hooks", "doctor")
	if code != 0 || strings.Count(doc, "trusted by Codex") != len(wiring.CodexEntries) {
		t.Errorf("doctor from the subfolder, hooks trusted: exit %d\n%s", code, doc)
	}
	out := r.st("hooks", "install", "--for", "codex", "--scope", "project")
	if !strings.Contains(out, "wires st's hooks too") {
		t.Errorf("a second project install in the subfolder does not warn:\n%s", out)
	}
	if n := len(r.hooksList()); n != 2*len(wiring.CodexEntries) {
		t.Errorf("Codex lists %d hooks after the second install, want st's twice", n)
	}
	r.trustAll()
	doc, code = r.stExit("hooks", "doctor")
	if code != 1 || !strings.Contains(doc, "st's hook is wired 2 times") {
		t.Errorf("doctor with two project installs: exit %d\n%s", code, doc)
	}
	logs := r.codex("hello")
	if n := strings.Count(logs, "hook: SessionStart Completed"); n != 2 {
		t.Errorf("SessionStart ran %d times, want 2 (which is why doctor fails)", n)
	}
}
