package dashboard

import (
	"os"
	"path/filepath"
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
