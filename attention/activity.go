package attention

import (
	"bytes"
	"path"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/status"
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
	// Transcript is where the fill of the last turn is still to be read,
	// and Stopped when: its Stop ran before the client wrote the reply
	// (events.Event.Transcript). "" once a line recorded a fill.
	Transcript string
	Stopped    time.Time
}

// Where is where a person finds the agent: the project folder of its
// session, the host its hooks ran on, and its tmux pane when it runs in
// tmux, as the latest event that said so recorded them.
type Where struct {
	Cwd  string `json:"cwd,omitempty"`
	Host string `json:"host,omitempty"`
	Pane string `json:"pane,omitempty"`
}

// Empty reports whether nothing is known.
func (w Where) Empty() bool { return w == Where{} }

// String is "<cwd> on <host>, tmux pane <pane>", with what is known.
func (w Where) String() string {
	var parts []string
	if w.Cwd != "" {
		parts = append(parts, w.Cwd)
	}
	if w.Host != "" {
		parts = append(parts, "on "+w.Host)
	}
	s := strings.Join(parts, " ")
	if w.Pane != "" {
		if s != "" {
			s += ", "
		}
		s += "tmux pane " + w.Pane
	}
	return s
}

// Activity is what an agent's events say, folded oldest first.
type Activity struct {
	Waiting    *events.Waiting
	APIError   *APIError
	Thrash     *Thrash // the current failure streak; thrashing from ThrashAt
	Fill       Fill
	LastTool   string
	LastTarget string
	LastEvent  time.Time
	Where      Where
}

// NewSession forgets what belonged to the previous session.
func (a *Activity) NewSession(partial bool) {
	a.Waiting, a.APIError, a.Thrash = nil, nil, nil
	a.Fill = Fill{Partial: partial}
	a.Where = Where{}
}

// Feed folds one event in.
func (a *Activity) Feed(e *events.Event) {
	at, ok := e.Time()
	if !ok {
		return
	}
	if at.After(a.LastEvent) {
		a.LastEvent = at
	}
	if e.CtxTokens > 0 {
		a.Fill.Tokens, a.Fill.Reported, a.Fill.Model = e.CtxTokens, e.CtxWindow, e.Model
		a.Fill.Transcript = ""
	} else if e.Transcript != "" && e.AgentID == "" {
		a.Fill.Transcript, a.Fill.Stopped = e.Transcript, at
	}
	if e.Cwd != "" || e.Host != "" || e.Pane != "" {
		a.Where = Where{Cwd: e.Cwd, Host: e.Host, Pane: e.Pane}
	}
	switch e.Event {
	case "Notification":
		// A notification answers nothing: what waited still waits.
		if w, ok := events.WaitingOn([]events.Event{*e}); ok {
			a.Waiting = &w
		}
		return
	case "StopFailure":
		if e.AgentID != "" {
			return // a subagent's API error ends the subagent, not the session's turn
		}
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
		a.LastTool, a.LastTarget = e.Tool, Target(e)
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
			a.Thrash = &Thrash{Tool: e.Tool, Target: Target(e), Failures: 1, Since: at, input: e.Input}
		}
	case "Stop", "UserPromptSubmit", "SessionStart", "SessionEnd":
		a.Thrash = nil // the turn is over, or a person stepped in
	case "PreCompact":
		a.Fill.Compactions++
	}
}

// Thrashing is the failure streak when it is long enough to count.
func (a *Activity) Thrashing() *Thrash {
	if a.Thrash != nil && a.Thrash.Failures >= ThrashAt {
		return a.Thrash
	}
	return nil
}

// Signals are the activity's signals with the agent's status and its
// last sign of life besides its events (a file change, as unix ms; 0:
// none).
func (a *Activity) Signals(effective, claimed string, lastFileMs float64) Signals {
	s := Signals{Waiting: a.Waiting != nil, APIError: a.APIError, Thrash: a.Thrashing(), Status: effective, Claimed: claimed, LastSeen: a.LastEvent}
	if a.Waiting != nil {
		s.WaitingSince, _ = time.Parse(time.RFC3339Nano, a.Waiting.Since)
	}
	if la := time.UnixMilli(int64(lastFileMs)); lastFileMs > 0 && la.After(s.LastSeen) {
		s.LastSeen = la
	}
	return s
}

// TailBytes is how much of an agent's latest session log Read folds: the
// recent turns, enough for a wait, an API error streak or a thrash.
const TailBytes = 8 << 10

// Read folds the end of agent's most recently written session log, from
// its last turn boundary within the last max bytes: a PostToolUse, Stop,
// UserPromptSubmit, SessionStart or SessionEnd line clears every streak
// (waiting, API error, thrash), so what comes before it cannot change the
// group, and most agents' logs end a line or two after one. Only those
// lines are decoded (a fleet brief reads a thousand logs); the fill, the
// compaction count, the last tool and where the agent is come from them
// alone (the dashboard folds whole logs for those). An agent
// without a log has no activity.
func Read(t *fsutil.Tree, agent string, max int64) Activity {
	var a Activity
	if t == nil {
		return a
	}
	rel, _, ok := events.Latest(t, agent)
	if !ok {
		return a
	}
	data, fi, err := t.ReadTail(rel, max)
	if err != nil {
		return a
	}
	if int64(len(data)) < fi.Size() { // the first line is cut
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		} else {
			data = nil
		}
	}
	lines := events.Lines(data)
	from := 0
	for i := len(lines) - 1; i >= 0; i-- {
		if boundary(lines[i]) {
			from = i
			break
		}
	}
	for _, line := range lines[from:] {
		if e, ok := events.Parse(line); ok {
			a.Feed(&e)
		}
	}
	return a
}

// boundaries are the events after which no streak goes on, as their
// lines begin (events.Marshal writes ts, then event).
var boundaries = [][]byte{[]byte(`"event":"PostToolUse",`), []byte(`"event":"Stop",`),
	[]byte(`"event":"UserPromptSubmit",`), []byte(`"event":"SessionStart",`), []byte(`"event":"SessionEnd",`)}

// boundary reports whether a log line is a turn boundary's, by its event
// name where the writer puts it; a line it cannot tell is not one.
func boundary(line []byte) bool {
	i := bytes.Index(line, []byte(`,"event":`))
	if i < 0 || i > 64 {
		return false
	}
	head := line[i+1:]
	for _, b := range boundaries {
		if bytes.HasPrefix(head, b) {
			return true
		}
	}
	return false
}

// StatusOf is id's effective status, as `st status` derives it, and the
// state its file names even when that has gone stale (busy, then unknown
// with age, is still an agent that said it was working).
func StatusOf(t *fsutil.Tree, id string, at time.Time) (effective, claimed string) {
	effective = status.Effective(t, id, at)
	if effective != "unknown" {
		return effective, effective
	}
	if data, _, err := t.ReadRegular(id + "/status"); err == nil {
		claimed = status.Normalize(string(data))
	}
	return effective, claimed
}

// targetMax caps a shortened tool target, in runes.
const targetMax = 48

// Target is the tool call's object, shortened: a path's last two
// elements, a command's first line.
func Target(e *events.Event) string {
	if e.Path != "" {
		p := strings.TrimRight(e.Path, "/")
		dir, file := path.Split(p)
		if parent := path.Base(strings.TrimRight(dir, "/")); dir != "" && parent != "." && parent != "/" {
			file = parent + "/" + file
		}
		if file != p {
			file = "…/" + file
		}
		return CapDots(file, targetMax)
	}
	return CapDots(events.FirstLine(e.Command), targetMax)
}

// CapDots caps s to n runes, marking a cut with an ellipsis.
func CapDots(s string, n int) string {
	if c := events.Cap(s, n); c != s {
		return events.Cap(s, n-1) + "…"
	}
	return s
}
