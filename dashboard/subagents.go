package dashboard

import (
	"slices"
	"strconv"
	"strings"

	"github.com/smalltalk-go/st/events"
)

// subagentsShown is how many subagents an agent page lists: every
// running one first, then the newest finished.
const subagentsShown = 20

// Subagents are the latest session's subagents as the fleet row counts
// them and the agent page lists them.
type Subagents struct {
	Running, Done, Failed int
	// Partial: the counts are of the log's end only (the board reads a
	// long log from its tail), so there may be more.
	Partial bool
	// Shown are the running ones, then the newest finished ones, at most
	// subagentsShown.
	Shown []events.Subagent
}

// Any reports whether the session started a subagent.
func (s Subagents) Any() bool { return s.Running+s.Done+s.Failed > 0 }

// Hidden is how many the list leaves out.
func (s Subagents) Hidden() int { return s.Running + s.Done + s.Failed - len(s.Shown) }

// subagentsOf summarises what fold holds, of the log's end only when
// partial.
func subagentsOf(fold *events.SubagentFold, partial bool) Subagents {
	s := Subagents{Partial: partial}
	s.Running, s.Done, s.Failed = fold.Counts()
	subs := fold.List()
	if len(subs) == 0 {
		return s
	}
	slices.Reverse(subs) // newest first
	slices.SortStableFunc(subs, func(a, b events.Subagent) int {
		return boolRank(a.Outcome != events.SubagentRunning) - boolRank(b.Outcome != events.SubagentRunning)
	})
	s.Shown = subs[:min(len(subs), subagentsShown)]
	return s
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Counts is "2 running, 3 done, 1 failed", leaving out the zeros, and
// saying so when they are of the log's end only.
func (s Subagents) Counts() string {
	var parts []string
	for _, c := range []struct {
		n    int
		word string
	}{{s.Running, "running"}, {s.Done, "done"}, {s.Failed, "failed"}} {
		if c.n > 0 {
			parts = append(parts, strconv.Itoa(c.n)+" "+c.word)
		}
	}
	text := strings.Join(parts, ", ")
	if s.Partial && text != "" {
		text += " in the log's last " + strconv.Itoa(activityTail>>10) + " KB (more may precede it)"
	}
	return text
}
