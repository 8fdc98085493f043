package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oldAsyncSessionStart is SessionStart as older installs
// wired it: async + asyncRewake, the context on stderr with exit 2.
const oldAsyncSessionStart = `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","async":true,"asyncRewake":true,"command":"st hook session-start"}]}]}}`

// SessionStart: now.md and the unread inbox reach the model in the first
// request of the session, once, and the client accepts st's output, with
// the plain `st hooks install` (run over an install of the old async
// form, which it must replace) as with --all. The run is one turn whose
// result answers the user's prompt: the old form woke a second turn
// with the ritual and -p returned the reply to that.
func TestSessionStartStartup(t *testing.T) {
	installs := map[string]func(*project){
		"plain": func(p *project) {
			p.st("init")
			local := filepath.Join(p.dir, ".claude", "settings.local.json")
			if err := os.WriteFile(local, []byte(oldAsyncSessionStart), 0o644); err != nil {
				t.Fatal(err)
			}
			p.st("hooks", "install")
		},
		"all": func(p *project) {
			p.st("init")
			p.st("hooks", "install", "--all")
		},
	}
	for _, name := range []string{"plain", "all"} {
		t.Run(name, func(t *testing.T) {
			p := newProjectWith(t, func(n int, r *Request) Reply {
				if strings.Contains(r.LastUser(), "say hi") {
					return Text("hello")
				}
				return Text("a reply to something else")
			}, installs[name])
			p.writeNow("NOW-STARTUP: refactoring the lexer\n")
			p.stAs("bob", "message", "send", "alice", "-m", "please review", "--subject", "SUBJ-STARTUP")
			if out := p.st("hooks", "doctor"); strings.Contains(out, "FAIL") {
				t.Errorf("doctor after install:\n%s", out)
			}

			r := p.claude("say hi")
			p.checkClean(r)
			reqs := p.mock.Messages()
			if len(reqs) == 0 {
				t.Fatalf("the mock got no /v1/messages request; stdout:\n%s", r.stdout)
			}
			for _, want := range []string{"NOW-STARTUP: refactoring the lexer", "## st inbox (1 unread)", "SUBJ-STARTUP", "Run the st boot ritual"} {
				if n := copies(reqs[0], want); n != 1 {
					t.Errorf("first request holds %d copies of %q, want 1 (first in request %d of %d)", n, want, firstContaining(reqs, want)+1, len(reqs))
				}
			}
			if main := mainRequests(reqs, "say hi"); len(main) != 1 {
				t.Errorf("%d requests in the session's conversation, want 1 (no second, woken turn)", len(main))
			}
			if r.result == nil || r.result["result"] != "hello" {
				t.Errorf("-p returned %v, want the reply to the prompt", r.result["result"])
			}
			// MCP: `st init`'s server is connected and its tools are offered; with
			// tool search (the default) they are deferred, named in the prompt
			// and loaded on demand rather than sent in the tools array.
			first := reqs[0].Text()
			for _, name := range []string{"mcp__st__st_msg_send", "mcp__st__st_msg_ls", "mcp__st__st_msg_reply"} {
				if !reqs[0].HasTool(name) && !strings.Contains(first, "\n"+name+"\n") {
					t.Errorf("first request neither offers nor names %s", name)
				}
			}
			if got := r.hookRuns(); !contains(got, "SessionStart:startup success") {
				t.Errorf("hooks run = %v, want SessionStart:startup success", got)
			}
			starts := find(p.events(), "SessionStart")
			if len(starts) != 1 || starts[0].Session != r.session {
				t.Errorf("SessionStart events = %+v, want one in session %q", starts, r.session)
			}
		})
	}
}

// SessionStart on --resume: the resumed run's first request carries the
// now.md written since, and the event is logged as a resume.
func TestSessionStartResume(t *testing.T) {
	p := newProject(t, func(n int, r *Request) Reply { return Text("hello") })
	p.writeNow("NOW-ONE\n")
	r1 := p.claude("first prompt")
	p.checkClean(r1)
	if r1.session == "" {
		t.Fatalf("no session id in the stream:\n%s", r1.stdout)
	}
	before := len(p.mock.Messages())
	p.writeNow("NOW-TWO\n")

	r2 := p.claude("second prompt", "--resume", r1.session)
	p.checkClean(r2)
	reqs := p.mock.Messages()[before:]
	if len(reqs) == 0 {
		t.Fatal("the resumed run sent no request")
	}
	if !strings.Contains(reqs[0].Text(), "NOW-TWO") {
		t.Errorf("first request of the resumed run lacks the new now.md; it is in request %d of %d", firstContaining(reqs, "NOW-TWO")+1, len(reqs))
	}
	if got := r2.hookRuns(); !contains(got, "SessionStart:resume success") {
		t.Errorf("hooks run = %v, want SessionStart:resume success", got)
	}
	var sessions []string
	for _, e := range find(p.events(), "SessionStart") {
		sessions = append(sessions, e.Session)
	}
	if want := []string{r1.session, r1.session}; strings.Join(sessions, " ") != strings.Join(want, " ") {
		t.Errorf("SessionStart events in sessions %v, want %v", sessions, want)
	}
}

// SessionStart after a compaction: `/compact` in -p mode runs PreCompact
// and then SessionStart with source compact, whose context lands in the
// compacted conversation the next turn sends.
func TestSessionStartCompact(t *testing.T) {
	p := newProject(t, func(n int, r *Request) Reply {
		if strings.Contains(r.LastUser(), "summary") || strings.Contains(r.System, "summar") {
			return Text("SUMMARY-OF-CONVERSATION")
		}
		return Text("hello")
	})
	p.writeNow("NOW-BEFORE-COMPACT\n")
	r1 := p.claude("first prompt")
	p.checkClean(r1)
	p.writeNow("NOW-AT-COMPACT\n")

	r2 := p.claude("/compact", "--resume", r1.session)
	p.checkClean(r2)
	before := len(p.mock.Messages())
	r3 := p.claude("after compact", "--resume", r1.session)
	p.checkClean(r3)

	if got := r2.hookRuns(); !contains(got, "SessionStart:compact success") {
		t.Errorf("hooks run by /compact = %v, want SessionStart:compact success", got)
	}
	if pc := find(p.events(), "PreCompact"); len(pc) != 1 || pc[0].Session != r1.session {
		t.Errorf("PreCompact events = %+v, want one in session %q", pc, r1.session)
	}
	reqs := p.mock.Messages()[before:]
	if len(reqs) == 0 || !strings.Contains(reqs[0].Text(), "NOW-AT-COMPACT") {
		t.Errorf("the first request after the compaction lacks the now.md injected at compact time")
	}
	p.checkPayloads()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
