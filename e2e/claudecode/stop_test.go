package claudecode

import (
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/hooks"
)

// Stop: a message that reaches the agent's inbox mid-turn (sent by
// another process while the mock is answering the turn's first request)
// is announced to the model at the end of the turn once and only once:
// the turn continues with it, the next Stop stays silent, the request
// after the announcement holds exactly one copy of it in any role
// (decision:block gave two, a user "Stop hook feedback" and a system
// "Stop hook blocking error"), and the user is told of no hook problem
// (checkClean: no stop-hook-error notification).
func TestStopAnnouncesMidTurnArrival(t *testing.T) {
	const subject = "MIDTURN-SUBJ"
	//lint:ignore S1021 the closure below refers to the variable, so it is declared first
	var p *project
	p = newProject(t, func(n int, r *Request) Reply {
		switch {
		case strings.Contains(r.LastUser(), subject):
			return Text("read the new message")
		case r.HasToolResult("toolu_echo"):
			return Text("turn done")
		}
		return ToolUse("toolu_echo", "Bash", map[string]any{"command": "echo working", "description": "work"})
	})
	p.stAs("bob", "message", "send", "alice", "-m", "old news", "--subject", "BEFORE-SUBJ")
	sent := make(chan error, 1)
	p.mock.OnRequest(func(n int, r *Request) {
		if n == 1 {
			out, err := p.stCmd("bob", "message", "send", "alice", "-m", "arrived mid-turn", "--subject", subject).CombinedOutput()
			if err != nil {
				err = &sendError{err, string(out)}
			}
			sent <- err
		}
	})
	r := p.claude("work on something")
	p.checkClean(r)
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	reqs := mainRequests(p.mock.Messages(), "work on something")
	if n := countIn(reqs, subject); n != 1 {
		t.Errorf("%d requests announce the mid-turn message as new, want exactly 1 (of %d requests)", n, len(reqs))
	}
	if n := countIn(reqs[1:], "BEFORE-SUBJ"); n != 0 {
		t.Errorf("the message SessionStart listed was announced again %d times", n)
	}
	announced := false
	for i, req := range reqs {
		n := copies(req, subject)
		announced = announced || n > 0
		if announced && n != 1 {
			t.Errorf("main request %d of %d holds %d copies of the announcement, want 1", i+1, len(reqs), n)
		}
		if n := copies(req, "BEFORE-SUBJ"); n != 1 {
			t.Errorf("main request %d of %d holds %d copies of SessionStart's inbox line, want 1", i+1, len(reqs), n)
		}
	}
	if r.result == nil || r.result["result"] != "read the new message" {
		t.Errorf("the run ended with %v, want the reply to the announcement", r.result["result"])
	}
}

type sendError struct {
	err error
	out string
}

func (e *sendError) Error() string { return "st message send: " + e.err.Error() + ": " + e.out }

// The context fill Stop records is the turn's last reply's: Claude Code
// writes that reply to the transcript while it runs Stop, and Stop used to
// record the reply before it (here 18,000 tokens where the last reply
// used 91,234), which the dashboard then showed.
func TestStopRecordsLastReplyFill(t *testing.T) {
	p := newProject(t, func(n int, r *Request) Reply {
		if r.HasToolResult("toolu_work") {
			reply := Text("LAST-REPLY: the work is done")
			reply.InputTokens = 91234
			return reply
		}
		reply := ToolUse("toolu_work", "Bash", map[string]any{"command": "echo working", "description": "work"})
		reply.InputTokens = 18000
		return reply
	})
	r := p.claude("do the work")
	p.checkClean(r)
	var stops []event
	for _, e := range find(p.events(), "Stop") {
		if e.Session == r.session {
			stops = append(stops, e)
		}
	}
	if len(stops) != 1 {
		t.Fatalf("Stop lines %+v, want one", stops)
	}
	// Stop never waits for Claude Code to write the reply it holds back
	// until the hook answers: it records the fill when the reply is
	// there, and else names the transcript for the reader to take it from.
	got := stops[0].CtxTokens
	if got == 0 && stops[0].Transcript != "" {
		at, err := time.Parse(time.RFC3339Nano, stops[0].TS)
		if err != nil {
			t.Fatal(err)
		}
		got, _, _ = hooks.PendingFill(stops[0].Transcript, at)
	}
	if got != 91234 {
		t.Errorf("Stop line %+v gives a fill of %d, want the last reply's 91234 tokens", stops[0], got)
	}
}
