package claudecode

import (
	"strconv"
	"strings"
	"testing"
)

// StopFailure: the mock fails requests with an API error. The hook must
// fire with the type the real client sends in `error`, apply st's policy
// (status, operator message), and for transient errors `st hook
// stop-failure --retry` (async, asyncRewake) re-wakes the session after
// its backoff: exit 2 with one line that Claude Code hands the model as
// a new turn, which the mock then answers. -p ends the session with the
// failed turn, so the session is kept open with stream-json input, as an
// interactive one would be.
func TestStopFailure(t *testing.T) {
	cases := []struct {
		status   int
		headers  map[string]string
		failAll  bool   // fail every request (a 400 is retried once without betas)
		failType string // what Claude Code sends in `error`
		state    string // agent status once the failure is handled
		operator string // subject of the operator message, "" = none
		rewakes  bool
	}{
		// 2.1.328 reports a 529 overloaded_error as server_error and a
		// 400 invalid_request_error as unknown.
		{529, nil, false, "server_error", "away", "agent alice wedged: server_error", true},
		{500, nil, false, "server_error", "away", "agent alice wedged: server_error", true},
		{429, map[string]string{"retry-after": "0"}, false, "rate_limit", "away", "", true},
		{400, nil, true, "unknown", "away", "agent alice wedged: unknown", false},
	}
	for _, c := range cases {
		t.Run(strconv.Itoa(c.status), func(t *testing.T) {
			p := newProject(t, func(n int, r *Request) Reply {
				if n == 1 || c.failAll {
					return APIError(c.status, c.headers)
				}
				return Text("recovered")
			})
			p.extra = append(p.extra, "CLAUDE_CODE_MAX_RETRIES=0", "ST_RETRY_BASE_S=0.1", "ST_RETRY_MAX_S=0.2")
			l := p.start()
			l.send("do the work")
			if res := l.result(1); res["is_error"] != true {
				t.Fatalf("first turn did not fail: %v", res)
			}
			waitFor(t, runTimeout, "the StopFailure event in st's log", func() bool { return len(find(p.events(), "StopFailure")) > 0 })
			if c.rewakes {
				if res := l.result(2); res["result"] != "recovered" {
					t.Errorf("the re-woken turn ended with %v, want the mock's reply", res["result"])
				}
			}
			if got := p.status(); got != c.state {
				t.Errorf("status = %q, want %q", got, c.state)
			}
			r := l.close()
			p.checkClean(r)

			fails := find(p.events(), "StopFailure")
			if len(fails) != 1 || fails[0].Error != c.failType || fails[0].Session != r.session {
				t.Fatalf("StopFailure events = %+v, want one with error %q in session %q", fails, c.failType, r.session)
			}
			msgs := p.inbox("operator")
			if c.operator == "" && len(msgs) > 0 {
				t.Errorf("operator got %d messages, want none: %q", len(msgs), msgs)
			}
			if c.operator != "" && (len(msgs) != 1 || !strings.Contains(msgs[0], `subject: "`+c.operator+`"`)) {
				t.Errorf("operator inbox = %q, want one message with subject %q", msgs, c.operator)
			}
			retry := "The previous turn ended on a transient API error (" + c.failType + "). Retry the failed turn now (automatic retry 1 of 10)."
			if n := countIn(p.mock.Messages(), retry); c.rewakes && n != 1 || !c.rewakes && n != 0 {
				t.Errorf("%d requests carry the retry line, want rewake=%v", n, c.rewakes)
			}
			if got := p.status(); got != "offline" {
				t.Errorf("status after the session ended = %q, want offline (SessionEnd)", got)
			}
			p.checkPayloads()
		})
	}
}
