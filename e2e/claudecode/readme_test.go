package claudecode

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
)

// readmeSetup returns the commands of the README's Claude Code setup: the
// first sh block under "## Claude Code", one command a line, comments
// dropped (export lines included: the test applies them).
func readmeSetup(t *testing.T) []string {
	t.Helper()
	cmds, err := e2ekit.ReadmeSteps("Claude Code")
	if err != nil {
		t.Fatal(err)
	}
	return cmds
}

// The README's Claude Code section, followed literally twice in a fresh
// HOME and project, gives a working setup: every command exits 0 both
// times (doctor included, with no FAIL line), and a session then gets
// now.md and the inbox once in its first request, answers the prompt in
// one turn, and the client reports no hook error.
func TestREADMESetup(t *testing.T) {
	cmds := readmeSetup(t)
	p := newProjectWith(t, func(n int, r *Request) Reply {
		if strings.Contains(r.LastUser(), "say hi") {
			return Text("hello")
		}
		return Text("a reply to something else")
	}, func(p *project) {
		for round := 1; round <= 2; round++ {
			env := p.env()
			for _, c := range cmds {
				// An export line sets the variables for the commands after
				// it, as in the shell the README has you type them into.
				if vars, ok := strings.CutPrefix(c, "export "); ok {
					env = append(env, strings.Fields(vars)...)
					continue
				}
				cmd := exec.Command("/bin/sh", "-c", c)
				cmd.Dir, cmd.Env = p.dir, env
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("README command %q (round %d): %v\n%s", c, round, err, out)
				}
				if strings.Contains(string(out), "FAIL") {
					t.Errorf("README command %q (round %d) reports a failure:\n%s", c, round, out)
				}
			}
		}
	})
	p.writeNow("NOW-README: following the README\n")
	p.stAs("bob", "message", "send", "alice", "-m", "hello there", "--subject", "SUBJ-README")

	r := p.claude("say hi")
	p.checkClean(r)
	reqs := p.mock.Messages()
	if len(reqs) == 0 {
		t.Fatalf("the mock got no /v1/messages request; stdout:\n%s", r.stdout)
	}
	for _, want := range []string{"NOW-README: following the README", "SUBJ-README", "Run the st boot ritual"} {
		if n := copies(reqs[0], want); n != 1 {
			t.Errorf("first request holds %d copies of %q, want 1", n, want)
		}
	}
	if main := mainRequests(reqs, "say hi"); len(main) != 1 {
		t.Errorf("%d requests in the session's conversation, want 1", len(main))
	}
	if r.result == nil || r.result["result"] != "hello" {
		t.Errorf("-p returned %v, want the reply to the prompt", r.result["result"])
	}
}
