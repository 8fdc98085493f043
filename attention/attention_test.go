package attention

import (
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

func TestClassify(t *testing.T) {
	now := time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)
	ago := func(m int) time.Time { return now.Add(-time.Duration(m) * time.Minute) }
	for _, tt := range []struct {
		name  string
		s     Signals
		group string
		since time.Time
	}{
		{"waiting beats everything", Signals{Waiting: true, WaitingSince: ago(4), APIError: &APIError{Since: ago(1)}, Status: "busy"}, Waiting, ago(4)},
		{"api error", Signals{APIError: &APIError{Since: ago(3)}, Thrash: &Thrash{Since: ago(1)}, Status: "away"}, APIFailed, ago(3)},
		{"thrashing", Signals{Thrash: &Thrash{Since: ago(2)}, Status: "busy", LastSeen: ago(1)}, Thrashing, ago(2)},
		{"busy but silent", Signals{Status: "busy", LastSeen: ago(11)}, Stale, ago(11)},
		{"busy gone unknown, silent", Signals{Status: "unknown", Claimed: "busy", LastSeen: ago(30)}, Stale, ago(30)},
		{"busy and lively", Signals{Status: "busy", LastSeen: ago(9)}, "busy", ago(9)},
		{"available", Signals{Status: "available", LastSeen: ago(50)}, "available", ago(50)},
		{"unknown word", Signals{Status: "napping"}, Unknown, time.Time{}},
	} {
		g, since := Classify(tt.s, now)
		if g != tt.group || !since.Equal(tt.since) {
			t.Errorf("%s: Classify = %s %v, want %s %v", tt.name, g, since, tt.group, tt.since)
		}
	}
}

func TestOrder(t *testing.T) {
	now := time.Now()
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{Waiting, APIFailed, -1}, {APIFailed, Thrashing, -1}, {Thrashing, Stale, -1}, {Stale, "busy", -1},
		{"busy", "available", -1}, {"offline", Unknown, 1}, {"nonsense", "offline", 1},
	} {
		if got := Compare(tt.a, now, "x", tt.b, now, "x"); got != tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if Compare(Waiting, now.Add(-time.Hour), "z", Waiting, now, "a") != -1 {
		t.Error("the longest waiting should come first")
	}
}

func TestFeedWhereAndDetail(t *testing.T) {
	evs := []events.Event{
		{TS: "2026-07-21T09:00:00.000Z", Event: "SessionStart", Cwd: "/w/a", Host: "h1"},
		{TS: "2026-07-21T09:01:00.000Z", Event: "PostToolUseFailure", Tool: "Bash", Command: "make", Input: "i1"},
		{TS: "2026-07-21T09:02:00.000Z", Event: "PostToolUseFailure", Tool: "Bash", Command: "make", Input: "i1"},
		{TS: "2026-07-21T09:03:00.000Z", Event: "PostToolUseFailure", Tool: "Bash", Command: "make", Input: "i1"},
	}
	var a Activity
	for i := range evs {
		a.Feed(&evs[i])
	}
	if got := Detail(Thrashing, &a); got != "Bash failed 3 times in a row (make)" {
		t.Errorf("thrash detail = %q", got)
	}
	n := events.Event{TS: "2026-07-21T09:04:00.000Z", Event: "Notification", Type: "idle_prompt", Message: "Claude is waiting for your input", Cwd: "/w/b", Host: "h2", Pane: "%3"}
	a.Feed(&n)
	if got := Detail(Waiting, &a); got != `idle_prompt: "Claude is waiting for your input"` {
		t.Errorf("waiting detail = %q", got)
	}
	if got := a.Where.String(); got != "/w/b on h2, tmux pane %3" {
		t.Errorf("where = %q", got)
	}
	for _, tt := range []struct {
		w    Where
		want string
	}{{Where{}, ""}, {Where{Pane: "%1"}, "tmux pane %1"}, {Where{Cwd: "/p"}, "/p"}, {Where{Host: "h"}, "on h"}} {
		if got := tt.w.String(); got != tt.want {
			t.Errorf("%+v = %q, want %q", tt.w, got, tt.want)
		}
	}
	sub := events.Event{TS: "2026-07-21T09:04:00.000Z", Event: "StopFailure", Error: "rate_limit", AgentID: "a1"}
	a.Feed(&sub)
	if a.APIError != nil || a.Waiting == nil {
		t.Errorf("a subagent's API error stopped the session: api error %+v, waiting %v", a.APIError, a.Waiting)
	}
	f := events.Event{TS: "2026-07-21T09:05:00.000Z", Event: "StopFailure", Error: "overloaded", Attempt: 2}
	a.Feed(&f)
	if a.Waiting != nil || Detail(APIFailed, &a) != "overloaded, retry 2" {
		t.Errorf("after StopFailure: waiting %v, detail %q", a.Waiting, Detail(APIFailed, &a))
	}
}
