package dashboard

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

// The fleet row counts the latest session's subagents and the agent page
// lists them, running first, with their type, state, tools and the first
// line of their report; a subagent's reply is shown as text.
func TestSubagentsOnTheBoard(t *testing.T) {
	now := time.Now()
	ts := func(d time.Duration) string { return now.Add(-d).UTC().Format(events.TimeFormat) }
	line := func(e events.Event) string {
		b, err := events.Marshal(&e)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	log := line(events.Event{TS: ts(9 * time.Minute), Event: "SessionStart", Session: "s2"}) +
		line(events.Event{TS: ts(8 * time.Minute), Event: "SubagentStart", Session: "s2", AgentID: "a1", AgentType: "Explore"}) +
		line(events.Event{TS: ts(7 * time.Minute), Event: "PostToolUse", Session: "s2", AgentID: "a1", Tool: "Grep"}) +
		line(events.Event{TS: ts(6 * time.Minute), Event: "SubagentStop", Session: "s2", AgentID: "a1", AgentType: "Explore", Message: "Found 3 callers " + xssScript}) +
		line(events.Event{TS: ts(5 * time.Minute), Event: "SubagentStart", Session: "s2", AgentID: "a2", AgentType: "Plan"}) +
		line(events.Event{TS: ts(4 * time.Minute), Event: "StopFailure", Session: "s2", AgentID: "a2", Error: "overloaded"}) +
		line(events.Event{TS: ts(3 * time.Minute), Event: "SubagentStart", Session: "s2", AgentID: "a3", AgentType: "general-purpose"})
	old := line(events.Event{TS: ts(time.Hour), Event: "SubagentStart", Session: "s1", AgentID: "gone", AgentType: "Old"})
	root := writeStore(t, with(agentFolders, map[string]string{
		"alice/status":          "busy\n",
		"alice/events/s1.jsonl": old,
		"alice/events/s2.jsonl": log,
	}))
	hourAgo := now.Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, "alice/events/s1.jsonl"), hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, root, func(c *Config) { c.Now = fixedClock(&now) })
	r, ok := s.fleet.Row("alice")
	if !ok {
		t.Fatal("no row for alice")
	}
	if got := r.Subagents; got.Running != 1 || got.Done != 1 || got.Failed != 1 || len(got.Shown) != 3 || got.Shown[0].ID != "a3" {
		t.Errorf("alice's subagents = %+v, want a3 running first, one done, one failed, none of the older session", got)
	}
	if r.APIError != nil {
		t.Errorf("a subagent's API error put its parent in the api-error group: %+v", r.APIError)
	}
	_, fleetPage := get(t, s, "/")
	if !strings.Contains(fleetPage, "subagents: 1 running, 1 done, 1 failed") {
		t.Errorf("the fleet row does not count the subagents")
	}
	_, page := get(t, s, "/agent/alice")
	for _, want := range []string{`id="subagents"`, "1 running, 1 done, 1 failed", "general-purpose", "Explore",
		`<span class="badge sub-failed">failed</span>`, "overloaded", "Found 3 callers &lt;script&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the agent page lacks %q", want)
		}
	}
	if strings.Contains(page, "Old") {
		t.Errorf("the agent page lists a subagent of an older session")
	}
	if i, j := strings.Index(page, "general-purpose"), strings.Index(page, "Found 3 callers"); i < 0 || j < 0 || i > j {
		t.Errorf("the running subagent is not listed before the finished ones")
	}
}

func TestSubagentCountsText(t *testing.T) {
	for _, tt := range []struct {
		s    Subagents
		want string
	}{{Subagents{}, ""}, {Subagents{Running: 2}, "2 running"}, {Subagents{Done: 3, Failed: 1}, "3 done, 1 failed"}} {
		if got := tt.s.Counts(); got != tt.want {
			t.Errorf("%+v.Counts() = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// The board's subagent counts are exact past the fold's bound, and say
// so when they come from the end of a log too long to read whole (10,000
// subagents used to show as "24 running, 40 done, 6 failed").
func TestSubagentCountsExactOrPartial(t *testing.T) {
	now := time.Now()
	ts := now.Add(-time.Minute).UTC().Format(events.TimeFormat)
	logOf := func(n int) string {
		var b strings.Builder
		for i := range n {
			id := "s" + strconv.Itoa(i)
			e := events.Event{TS: ts, Event: "SubagentStart", Session: "s", AgentID: id}
			l, _ := events.Marshal(&e)
			b.Write(l)
			if i%3 != 0 { // every third runs on
				e := events.Event{TS: ts, Event: "SubagentStop", Session: "s", AgentID: id}
				l, _ := events.Marshal(&e)
				b.Write(l)
			}
		}
		return b.String()
	}
	for _, tt := range []struct {
		n       int
		partial bool
	}{{300, false}, {10000, true}} {
		log := logOf(tt.n)
		if (len(log) > activityTail) != tt.partial {
			t.Fatalf("%d subagents: a log of %d bytes, against a tail of %d", tt.n, len(log), activityTail)
		}
		root := writeStore(t, with(agentFolders, map[string]string{"alice/status": "busy\n", "alice/events/s.jsonl": log}))
		s := newServer(t, root, func(c *Config) { c.Now = fixedClock(&now) })
		r, _ := s.fleet.Row("alice")
		got := r.Subagents
		running := (tt.n + 2) / 3
		if !tt.partial && (got.Running != running || got.Done != tt.n-running || got.Partial) {
			t.Errorf("%d subagents: %+v, want exactly %d running, %d done", tt.n, got.Counts(), running, tt.n-running)
		}
		_, page := get(t, s, "/")
		if tt.partial && (!got.Partial || !strings.Contains(page, "in the log&#39;s last 64 KB (more may precede it)")) {
			t.Errorf("%d subagents: the board shows %q with nothing saying the count is partial", tt.n, got.Counts())
		}
	}
}
