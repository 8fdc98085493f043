package claudecode

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// StopFailure: the mock fails requests with an API error. The hook must
// fire with what the real client sends, read it as the failure it is
// (2.1.328 reports a 529 overloaded_error as server_error and a 400
// invalid_request_error as unknown, naming the status in
// last_assistant_message), apply st's policy row for it (status, operator
// message), and for transient errors `st hook stop-failure --retry`
// (async, asyncRewake) re-wakes the session after its backoff: exit 2
// with one line that Claude Code hands the model as a new turn, which
// the mock then answers. Once that turn ends (Stop) the agent's status
// is back to what it was before the failure. -p ends the session with
// the failed turn, so the session is kept open with stream-json input,
// as an interactive one would be (TestStopFailureHeadless: a one-shot
// -p).
func TestStopFailure(t *testing.T) {
	cases := []struct {
		status   int
		headers  map[string]string
		failAll  bool   // fail every request (a 400 is retried once without betas)
		sent     string // what Claude Code sends in `error`
		failType string // what st reads it as
		failed   string // agent status once the failure is handled
		operator string // subject of the operator message, "" = none
		rewakes  bool
	}{
		{529, nil, false, "server_error", "overloaded", "away", "", true},
		{500, nil, false, "server_error", "server_error", "away", "agent alice wedged: server_error", true},
		{429, map[string]string{"retry-after": "0"}, false, "rate_limit", "rate_limit", "away", "", true},
		{400, nil, true, "unknown", "invalid_request", "busy", "", false},
	}
	for _, c := range cases {
		t.Run(strconv.Itoa(c.status), func(t *testing.T) {
			p := newProject(t, func(n int, r *Request) Reply {
				if n == 1 || c.failAll {
					return APIError(c.status, c.headers)
				}
				return Text("recovered")
			})
			p.st("status", "--set", "busy")
			// A backoff of about a second leaves time to see the failure's status.
			p.extra = append(p.extra, "CLAUDE_CODE_MAX_RETRIES=0", "ST_RETRY_BASE_S=1", "ST_RETRY_MAX_S=1")
			l := p.start()
			l.send("do the work")
			if res := l.result(1); res["is_error"] != true {
				t.Fatalf("first turn did not fail: %v", res)
			}
			waitFor(t, runTimeout, "the StopFailure event in st's log", func() bool { return len(find(p.events(), "StopFailure")) > 0 })
			if got := p.status(); got != c.failed {
				t.Errorf("status after the failure = %q, want %q", got, c.failed)
			}
			if c.rewakes {
				if res := l.result(2); res["result"] != "recovered" {
					t.Errorf("the re-woken turn ended with %v, want the mock's reply", res["result"])
				}
				waitFor(t, runTimeout, "the Stop of the retried turn", func() bool { return len(find(p.events(), "Stop")) > 0 })
			}
			if got := p.status(); got != "busy" {
				t.Errorf("status = %q, want busy, as before the failure", got)
			}
			r := l.close()
			p.checkClean(r)

			fails := find(p.events(), "StopFailure")
			if len(fails) != 1 || fails[0].Error != c.failType || fails[0].Session != r.session {
				t.Fatalf("StopFailure events = %+v, want one with error %q in session %q", fails, c.failType, r.session)
			}
			for _, m := range p.payloads("StopFailure") {
				if m["error"] != c.sent {
					t.Errorf("Claude Code sent error %v, want %q (the recorded payloads say so)", m["error"], c.sent)
				}
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
			if c.status == 529 || c.status == 400 {
				for _, m := range p.payloads("StopFailure") {
					if os.Getenv("ST_E2E_UPDATE_PAYLOADS") == "1" {
						p.savePayload("StopFailure-"+strconv.Itoa(c.status), m)
					}
				}
			}
		})
	}
}

// A one-shot `claude -p` whose turn fails on a transient error cannot be
// woken for a retry: st's retry hook must not hold the run for its
// backoff (an hour here; the run would time out) and says in its log
// why it did not retry.
func TestStopFailureHeadless(t *testing.T) {
	p := newProject(t, func(n int, r *Request) Reply { return APIError(529, nil) })
	p.extra = append(p.extra, "CLAUDE_CODE_MAX_RETRIES=0", "ST_RETRY_BASE_S=3600", "ST_RETRY_MAX_S=3600")
	r := p.claude("do the work")
	p.checkClean(r)
	if r.result == nil || r.result["is_error"] != true {
		t.Errorf("the run ended with %v, want the failed turn", r.result)
	}
	fails := find(p.events(), "StopFailure")
	if len(fails) != 1 || fails[0].Error != "overloaded" || fails[0].Advice != "no-retry-headless" {
		t.Errorf("StopFailure events = %+v, want one overloaded, advice no-retry-headless", fails)
	}
	for _, m := range p.mock.Messages() {
		if strings.Contains(m.LastUser(), "Retry the failed turn") {
			t.Error("a retry turn was sent")
		}
	}
}
