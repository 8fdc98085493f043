package events

import (
	"reflect"
	"strconv"
	"testing"
	"time"
)

func TestSubagents(t *testing.T) {
	at := func(s string) time.Time {
		ts, err := time.Parse(TimeFormat, "2026-07-21T10:00:"+s+".000Z")
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	line := func(sec, event, session, id, typ string) Event {
		return Event{TS: "2026-07-21T10:00:" + sec + ".000Z", Event: event, Session: session, AgentID: id, AgentType: typ}
	}
	stop := func(sec, id, msg, errText, advice string) Event {
		e := line(sec, "SubagentStop", "s1", id, "Explore")
		e.Message, e.Error, e.Advice = msg, errText, advice
		return e
	}
	failure := line("09", "StopFailure", "s1", "a1", "")
	failure.Error = "rate_limit"
	tests := []struct {
		name  string
		lines []Event
		want  []Subagent
	}{
		{"none", []Event{line("00", "SessionStart", "s1", "", ""), line("01", "PostToolUse", "s1", "", "")}, nil},
		{"running, with its tools counted and the parent's not",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), line("02", "PostToolUse", "s1", "a1", ""),
				line("03", "PostToolUseFailure", "s1", "a1", ""), line("04", "PreToolUse", "s1", "a1", ""),
				line("05", "PostToolUse", "s1", "", "")},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), Outcome: SubagentRunning, Tools: 2}}},
		{"done with its first line",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), stop("07", "a1", "Found 3 callers", "", "")},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), End: at("07"), Outcome: SubagentDone, FirstLine: "Found 3 callers"}}},
		{"failed at its stop",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), stop("07", "a1", "", "API Error: 400", "")},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), End: at("07"), Outcome: SubagentFailed, FirstLine: "API Error: 400"}}},
		{"failed on an API error",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), failure},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), End: at("09"), Outcome: SubagentFailed, FirstLine: "rate_limit"}}},
		{"sent back by the gate runs on until its next stop",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), stop("05", "a1", "Plan: first I will", "", "gate")},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), Outcome: SubagentRunning, FirstLine: "Plan: first I will"}}},
		{"sent back, then done",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), stop("05", "a1", "Plan: first I will", "", "gate"),
				line("06", "PostToolUse", "s1", "a1", ""), stop("08", "a1", "Did it", "", "")},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), End: at("08"), Outcome: SubagentDone, FirstLine: "Did it", Tools: 1}}},
		{"the session's end fails what still runs, and only in that session",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), line("02", "SubagentStart", "s1", "a2", "Plan"),
				line("02", "SubagentStart", "s2", "a3", "Plan"), stop("03", "a2", "ok", "", ""), line("09", "SessionEnd", "s1", "", "")},
			[]Subagent{
				{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), End: at("09"), Outcome: SubagentFailed, FirstLine: SessionEndedNote},
				{ID: "a2", Type: "Plan", Session: "s1", Start: at("02"), End: at("03"), Outcome: SubagentDone, FirstLine: "ok"},
				{ID: "a3", Type: "Plan", Session: "s2", Start: at("02"), Outcome: SubagentRunning}}},
		{"a stop whose start was cut off",
			[]Event{stop("07", "a1", "done", "", "")},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", End: at("07"), Outcome: SubagentDone, FirstLine: "done"}}},
		{"a second start of the same subagent keeps the first",
			[]Event{line("01", "SubagentStart", "s1", "a1", "Explore"), line("02", "SubagentStart", "s1", "a1", "Explore")},
			[]Subagent{{ID: "a1", Type: "Explore", Session: "s1", Start: at("01"), Outcome: SubagentRunning}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Subagents(tt.lines)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Subagents =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestSubagentCounts(t *testing.T) {
	subs := []Subagent{{Outcome: SubagentRunning}, {Outcome: SubagentRunning}, {Outcome: SubagentDone}, {Outcome: SubagentFailed}}
	if r, d, f := SubagentCounts(subs); r != 2 || d != 1 || f != 1 {
		t.Errorf("SubagentCounts = %d, %d, %d, want 2, 1, 1", r, d, f)
	}
}

// A fold keeps at most MaxSubagents, forgetting the oldest finished one
// first, so a session that starts thousands stays bounded and the running
// ones stay in view.
func TestSubagentFoldIsBounded(t *testing.T) {
	var f SubagentFold
	start := func(id string) {
		f.Feed(&Event{TS: "2026-07-21T10:00:00.000Z", Event: "SubagentStart", Session: "s1", AgentID: id})
	}
	start("keep-running")
	for i := range 3 * MaxSubagents {
		id := "a" + strconv.Itoa(i)
		start(id)
		f.Feed(&Event{TS: "2026-07-21T10:00:01.000Z", Event: "SubagentStop", Session: "s1", AgentID: id, Message: "ok"})
	}
	got := f.List()
	if len(got) != MaxSubagents {
		t.Fatalf("the fold keeps %d subagents, want %d", len(got), MaxSubagents)
	}
	if got[0].ID != "keep-running" || got[0].Outcome != SubagentRunning {
		t.Errorf("the running subagent was forgotten: first kept is %+v", got[0])
	}
	if last := got[len(got)-1]; last.ID != "a"+strconv.Itoa(3*MaxSubagents-1) || last.Outcome != SubagentDone {
		t.Errorf("the newest finished subagent is not last: %+v", last)
	}
	// The counts cover the forgotten ones too.
	if r, d, fl := f.Counts(); r != 1 || d != 3*MaxSubagents || fl != 0 {
		t.Errorf("Counts = %d running, %d done, %d failed, want 1, %d, 0", r, d, fl, 3*MaxSubagents)
	}
}

// With more subagents running at once than the fold keeps, the ones it
// forgot while they ran are counted once, running, then done when they
// stop.
func TestSubagentFoldCountsForgottenRunningOnce(t *testing.T) {
	var f SubagentFold
	const n = 2 * MaxSubagents
	for i := range n {
		f.Feed(&Event{TS: "2026-07-21T10:00:00.000Z", Event: "SubagentStart", Session: "s1", AgentID: "r" + strconv.Itoa(i)})
	}
	if r, d, _ := f.Counts(); r != n || d != 0 {
		t.Fatalf("all started: %d running, %d done, want %d, 0", r, d, n)
	}
	for i := range n / 2 {
		f.Feed(&Event{TS: "2026-07-21T10:00:01.000Z", Event: "SubagentStop", Session: "s1", AgentID: "r" + strconv.Itoa(i), Message: "ok"})
	}
	if r, d, _ := f.Counts(); r != n/2 || d != n/2 {
		t.Errorf("half stopped: %d running, %d done, want %d, %d", r, d, n/2, n/2)
	}
}
