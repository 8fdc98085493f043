package hooks

import (
	"fmt"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/toolcall"
)

// FlushRemindEvery is the least time between two flush reminders in one
// session.
const FlushRemindEvery = 30 * time.Minute

// isEditTool says whether tool is one of a client's editors (Clients):
// Claude Code's and Gemini CLI's, which name the file they change.
func isEditTool(tool string) bool {
	for _, c := range Clients {
		if c.KindOf(tool) == toolcall.Edit {
			return true
		}
	}
	return false
}

// realWorkCalls is how many completed tool calls count as real work
// even without an edit.
const realWorkCalls = 5

// RealWork reports whether a session's events show real work: a file
// edited or written, or several completed tool calls.
func RealWork(evs []events.Event) bool {
	var w workScan
	for i := range evs {
		w.add(&evs[i])
	}
	return w.real()
}

// workScan folds a session's events, in any order, into RealWork's
// answer.
type workScan struct {
	edited bool
	calls  int
}

func (w *workScan) add(e *events.Event) {
	if e.Event != "PostToolUse" {
		return
	}
	w.edited = w.edited || isEditTool(e.Tool)
	w.calls++
}

func (w *workScan) real() bool { return w.edited || w.calls >= realWorkCalls }

// FlushReminder decides whether a prompt gets a reminder to flush
// now.md: the session did real work, now.md is missing (nowMod zero) or
// older than after, and no reminder went out in the last 30 minutes
// (lastMS, unix ms, 0 for never). It returns the text, or "".
func FlushReminder(now, nowMod time.Time, after time.Duration, lastMS int64, realWork bool) string {
	if !realWork {
		return ""
	}
	if lastMS > 0 && now.Sub(time.UnixMilli(lastMS)) < FlushRemindEvery {
		return ""
	}
	if nowMod.IsZero() {
		return "now.md has not been written for this agent yet, and this session has done real work. " +
			"Flush your working state with `st context write` (current task, decisions, next steps)."
	}
	age := now.Sub(nowMod)
	if age <= after {
		return ""
	}
	return fmt.Sprintf("now.md was last written %d minutes ago, and this session has done real work since. "+
		"Flush your working state with `st context write` (current task, decisions, next steps).", int(age/time.Minute))
}
