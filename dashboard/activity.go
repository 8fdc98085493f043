package dashboard

import (
	"bytes"
	"time"

	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// The fleet page's view of an agent's hook events is folded, event by
// event, from its most recently written session log: the first look
// reads the log's last activityTail bytes, later looks only what was
// appended since (at most activityTail again), so an agent costs the
// same whatever its log's size and an arrival costs its new lines.
const activityTail = 64 << 10

// Spark geometry: sparkBuckets buckets of sparkStep, the last hour.
const (
	sparkBuckets = 12
	sparkStep    = 5 * time.Minute
)

// The event fold and its types are attention's, shared with `st agents`,
// `st overview` and the hooks' fleet brief.
type (
	APIError = attention.APIError
	Thrash   = attention.Thrash
	Fill     = attention.Fill
)

// activity is what an agent's events say, folded oldest first, with the
// fleet page's sparkline and the session's subagents.
type activity struct {
	attention.Activity
	spark spark
	subs  events.SubagentFold
	// partial: the session's log was first read from a tail.
	partial bool
}

// newSession forgets what belonged to the previous session.
func (a *activity) newSession(partial bool) {
	a.Activity.NewSession(partial)
	a.subs, a.partial = events.SubagentFold{}, partial
}

// feed folds one event in.
func (a *activity) feed(e *events.Event) {
	if at, ok := e.Time(); ok {
		a.spark.add(at)
	}
	a.Activity.Feed(e)
	a.subs.Feed(e)
}

// target is the tool call's object, shortened.
func target(e *events.Event) string { return attention.Target(e) }

// capDots caps s to n runes, marking a cut with an ellipsis.
func capDots(s string, n int) string { return attention.CapDots(s, n) }

// spark counts events per sparkStep; last is the bucket (unix time /
// sparkStep) of n's final slot.
type spark struct {
	last int64
	n    [sparkBuckets]int
}

func bucketOf(t time.Time) int64 { return t.Unix() / int64(sparkStep/time.Second) }

// shift moves the window so that its final slot is bucket b.
func (s *spark) shift(b int64) {
	d := b - s.last
	if d <= 0 {
		return
	}
	if d >= sparkBuckets {
		s.n = [sparkBuckets]int{}
	} else {
		copy(s.n[:], s.n[d:])
		for i := sparkBuckets - int(d); i < sparkBuckets; i++ {
			s.n[i] = 0
		}
	}
	s.last = b
}

func (s *spark) add(t time.Time) {
	b := bucketOf(t)
	s.shift(b)
	if i := sparkBuckets - 1 - int(s.last-b); i >= 0 {
		s.n[i]++
	}
}

// at is the counts of the hour ending at now, oldest first.
func (s spark) at(now time.Time) [sparkBuckets]int {
	s.shift(bucketOf(now))
	if bucketOf(now) < s.last {
		return [sparkBuckets]int{} // a clock gone back: show nothing rather than a wrong hour
	}
	return s.n
}

// cursor follows an agent's latest session log.
type cursor struct {
	rel  string
	off  int64
	act  activity
	asks map[string]bool // which messages ask for an acknowledgement (acks.go)
}

// advance folds in what the agent's latest log gained since the last
// look; a new latest log starts a new session (keeping the sparkline).
func (c *cursor) advance(t *fsutil.Tree, agent string) {
	rel, _, ok := events.Latest(t, agent)
	if !ok {
		if c.rel != "" {
			c.rel, c.off = "", 0
			c.act.newSession(false)
		}
		return
	}
	fi, err := t.Lstat(rel)
	if err != nil {
		return
	}
	if rel != c.rel || fi.Size() < c.off {
		c.rel, c.off = rel, 0
		c.act.newSession(fi.Size() > activityTail)
	}
	if fi.Size() == c.off {
		return
	}
	var data []byte
	start := c.off
	if fi.Size()-c.off > activityTail {
		start = fi.Size() - activityTail
		data, _, err = t.ReadRange(rel, start, activityTail)
		if i := bytes.IndexByte(data, '\n'); i >= 0 && start > 0 {
			// The first line is cut: skip it.
			data, start = data[i+1:], start+int64(i+1)
		}
		c.act.Fill.Partial = c.act.Fill.Partial || start > 0
		c.act.partial = c.act.partial || start > c.off // lines skipped: the subagent counts miss them
	} else {
		data, _, err = t.ReadRange(rel, c.off, activityTail)
	}
	if err != nil {
		return
	}
	end := bytes.LastIndexByte(data, '\n') // a line being written waits for its "\n"
	if end < 0 {
		return
	}
	for _, line := range events.Lines(data[:end+1]) {
		if e, ok := events.Parse(line); ok {
			c.act.feed(&e)
		}
	}
	c.off = start + int64(end+1)
}
