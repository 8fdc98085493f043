package dashboard

import (
	"bytes"
	"path"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/hooks"
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

// APIError is an agent stopped by an API error (StopFailure) that
// nothing has superseded yet.
type APIError struct {
	Class   string    // the error type, e.g. overloaded, rate_limit
	Attempt int       // the retry attempt (0: no retry under way)
	Since   time.Time // the first failure of the streak
	RetryAt time.Time // when the next retry is due (zero: none)
}

// Thrash is an agent failing the same tool call again and again.
type Thrash struct {
	Tool, Target string
	Failures     int
	Since        time.Time // the streak's first failure
	input        string
}

// Fill is how full an agent's context window was at its last recorded
// assistant turn.
type Fill struct {
	Tokens      int64
	Reported    int64 // the model's window as the client wrote it down (Codex); 0: not given
	Model       string
	Compactions int  // PreCompact events in the session so far
	Partial     bool // the session's log was read from a tail: more compactions may precede it
}

// activity is what an agent's events say, folded oldest first.
type activity struct {
	Waiting    *events.Waiting
	APIError   *APIError
	Thrash     *Thrash // the current failure streak; thrashing from hooks.ThrashAt
	Fill       Fill
	LastTool   string
	LastTarget string
	LastEvent  time.Time
	spark      spark
}

// newSession forgets what belonged to the previous session.
func (a *activity) newSession(partial bool) {
	a.Waiting, a.APIError, a.Thrash = nil, nil, nil
	a.Fill = Fill{Partial: partial}
}

// feed folds one event in.
func (a *activity) feed(e *events.Event) {
	at, ok := e.Time()
	if !ok {
		return
	}
	if at.After(a.LastEvent) {
		a.LastEvent = at
	}
	a.spark.add(at)
	if e.CtxTokens > 0 {
		a.Fill.Tokens, a.Fill.Reported, a.Fill.Model = e.CtxTokens, e.CtxWindow, e.Model
	}
	switch e.Event {
	case "Notification":
		// A notification answers nothing: what waited still waits.
		if w, ok := events.WaitingOn([]events.Event{*e}); ok {
			a.Waiting = &w
		}
		return
	case "StopFailure":
		if a.APIError == nil {
			a.APIError = &APIError{Since: at}
		}
		a.APIError.Class, a.APIError.Attempt = e.Error, e.Attempt
		a.APIError.RetryAt, _ = time.Parse(events.TimeFormat, e.RetryAt)
		a.Waiting = nil
		return
	}
	a.Waiting, a.APIError = nil, nil
	switch e.Event {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest":
		a.LastTool, a.LastTarget = e.Tool, target(e)
	}
	switch e.Event {
	case "PostToolUse":
		a.Thrash = nil
	case "PostToolUseFailure":
		if e.Interrupt {
			a.Thrash = nil
		} else if a.Thrash != nil && a.Thrash.Tool == e.Tool && a.Thrash.input == e.Input {
			a.Thrash.Failures++
		} else {
			a.Thrash = &Thrash{Tool: e.Tool, Target: target(e), Failures: 1, Since: at, input: e.Input}
		}
	case "Stop", "UserPromptSubmit", "SessionStart", "SessionEnd":
		a.Thrash = nil // the turn is over, or a person stepped in
	case "PreCompact":
		a.Fill.Compactions++
	}
}

// Thrashing is the failure streak when it is long enough to count.
func (a *activity) Thrashing() *Thrash {
	if a.Thrash != nil && a.Thrash.Failures >= hooks.ThrashAt {
		return a.Thrash
	}
	return nil
}

// targetMax caps a shortened tool target, in runes.
const targetMax = 48

// target is the tool call's object, shortened: a path's last two
// elements, a command's first line.
func target(e *events.Event) string {
	if e.Path != "" {
		p := strings.TrimRight(e.Path, "/")
		dir, file := path.Split(p)
		if parent := path.Base(strings.TrimRight(dir, "/")); dir != "" && parent != "." && parent != "/" {
			file = parent + "/" + file
		}
		if file != p {
			file = "…/" + file
		}
		return capDots(file, targetMax)
	}
	return capDots(events.FirstLine(e.Command), targetMax)
}

// capDots caps s to n runes, marking a cut with an ellipsis.
func capDots(s string, n int) string {
	if c := events.Cap(s, n); c != s {
		return events.Cap(s, n-1) + "…"
	}
	return s
}

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
