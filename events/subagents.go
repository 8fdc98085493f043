package events

import "time"

// A subagent is a helper a session started (Claude Code's Task/Agent
// tool). Its lines share the parent session's log and carry its
// agent_id: SubagentStart when it begins, the tool lines it fires while
// it works, SubagentStop when it ends (Message: the first line of its
// final reply; Error: set when it failed). A SubagentStop whose Advice
// is "gate" sent the subagent back to work, so it runs on until its next
// SubagentStop.

// Subagent outcomes.
const (
	SubagentRunning = "running"
	SubagentDone    = "done"
	SubagentFailed  = "failed"
)

// SessionEndedNote is the first line of a subagent still running when
// its session ended: it never reported.
const SessionEndedNote = "the session ended before it reported"

// MaxSubagents bounds the subagents a fold keeps: a session that starts
// thousands must not grow a reader's memory with them. Past it the
// oldest finished one is forgotten first (a running one only when every
// kept one runs).
const MaxSubagents = 256

// Subagent is one subagent as its parent session's lines tell it.
type Subagent struct {
	ID      string    `json:"id"`
	Type    string    `json:"type,omitempty"`
	Session string    `json:"session"`        // the parent session
	Start   time.Time `json:"start,omitzero"` // zero when its start is not among the lines
	End     time.Time `json:"end,omitzero"`   // zero while it runs
	Outcome string    `json:"outcome"`        // SubagentRunning, SubagentDone or SubagentFailed
	// FirstLine is the first line of its final reply, or what failed.
	FirstLine string `json:"first_line,omitempty"`
	Tools     int    `json:"tools"` // tool calls it finished (PostToolUse and PostToolUseFailure lines)
}

// SubagentFold folds lines, one at a time and oldest first, into the
// subagents they tell of, so a reader that follows a log as it grows
// (the dashboard) pays for each line once. The zero value is ready.
type SubagentFold struct {
	subs []Subagent // in the order they first appeared
	// forgotten counts by outcome the subagents makeRoom dropped, so the
	// counts stay exact however many a session starts; a running one it
	// dropped is kept by name (session and id) until its next line, which
	// moves it back among the kept ones instead of counting it twice.
	forgotten   struct{ running, done, failed int }
	runningGone map[[2]string]bool
}

// Counts counts every subagent folded in by outcome, the forgotten ones
// included.
func (f *SubagentFold) Counts() (running, done, failed int) {
	running, done, failed = SubagentCounts(f.subs)
	return running + f.forgotten.running, done + f.forgotten.done, failed + f.forgotten.failed
}

// Subagents folds lines (oldest first, of one session or several) into
// the subagents they tell of, in the order they first appear.
func Subagents(lines []Event) []Subagent {
	var f SubagentFold
	for i := range lines {
		f.Feed(&lines[i])
	}
	return f.List()
}

// List is the subagents so far, in the order they first appeared; the
// slice is the caller's.
func (f *SubagentFold) List() []Subagent {
	if len(f.subs) == 0 {
		return nil
	}
	return append([]Subagent(nil), f.subs...)
}

// Feed folds one line in. A line without an agent_id tells of no
// subagent, except SessionEnd: a subagent of that session still running
// then has failed.
func (f *SubagentFold) Feed(e *Event) {
	if e.AgentID == "" {
		if e.Event == "SessionEnd" {
			f.endSession(e)
		}
		return
	}
	s := f.find(e.Session, e.AgentID)
	if s == nil {
		if key := [2]string{e.Session, e.AgentID}; f.runningGone[key] {
			delete(f.runningGone, key)
			f.forgotten.running--
		}
		f.makeRoom()
		f.subs = append(f.subs, Subagent{ID: e.AgentID, Session: e.Session, Outcome: SubagentRunning})
		s = &f.subs[len(f.subs)-1]
	}
	if s.Type == "" {
		s.Type = e.AgentType
	}
	ts, _ := e.Time()
	switch e.Event {
	case "SubagentStart":
		if s.Start.IsZero() {
			s.Start = ts
		}
	case "SubagentStop":
		s.End, s.FirstLine = ts, e.Message
		switch {
		case e.Error != "":
			s.Outcome, s.FirstLine = SubagentFailed, firstNonEmpty(e.Message, e.Error)
		case e.Advice == "gate":
			s.Outcome, s.End = SubagentRunning, time.Time{}
		default:
			s.Outcome = SubagentDone
		}
	case "StopFailure":
		// An API error ended the subagent's turn: it reports nothing.
		s.End, s.Outcome, s.FirstLine = ts, SubagentFailed, e.Error
	case "PostToolUse", "PostToolUseFailure":
		s.Tools++
	}
}

// find is the subagent id of session, searched newest first (the lines
// of one subagent come together); nil when it is not kept.
func (f *SubagentFold) find(session, id string) *Subagent {
	for i := len(f.subs) - 1; i >= 0; i-- {
		if s := &f.subs[i]; s.ID == id && s.Session == session {
			return s
		}
	}
	return nil
}

// makeRoom makes room for one more subagent within MaxSubagents.
func (f *SubagentFold) makeRoom() {
	if len(f.subs) < MaxSubagents {
		return
	}
	drop := 0
	for i := range f.subs {
		if f.subs[i].Outcome != SubagentRunning {
			drop = i
			break
		}
	}
	switch s := &f.subs[drop]; s.Outcome {
	case SubagentRunning:
		f.forgotten.running++
		if f.runningGone == nil {
			f.runningGone = map[[2]string]bool{}
		}
		f.runningGone[[2]string{s.Session, s.ID}] = true
	case SubagentDone:
		f.forgotten.done++
	case SubagentFailed:
		f.forgotten.failed++
	}
	f.subs = append(f.subs[:drop], f.subs[drop+1:]...)
}

// endSession fails the subagents of e's session still running.
func (f *SubagentFold) endSession(e *Event) {
	ts, _ := e.Time()
	for i := range f.subs {
		if s := &f.subs[i]; s.Session == e.Session && s.Outcome == SubagentRunning {
			s.End, s.Outcome, s.FirstLine = ts, SubagentFailed, SessionEndedNote
		}
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// SubagentCounts counts subs by outcome.
func SubagentCounts(subs []Subagent) (running, done, failed int) {
	for _, s := range subs {
		switch s.Outcome {
		case SubagentRunning:
			running++
		case SubagentDone:
			done++
		case SubagentFailed:
			failed++
		}
	}
	return running, done, failed
}
