package wiring

import (
	"slices"

	"github.com/smalltalk-go/st/hooks"
)

// oldSessionStartFix says what is wrong with a SessionStart handler of
// ours in the old form and how to replace it.
const oldSessionStartFix = "the old background form (exit 2 on stderr): Claude Code reports it as a hook error, " +
	"the first request lacks the context and the exit wakes a second turn; " +
	"run `st hooks install` again (same --scope or --settings) to replace it"

// oldSessionStart reports whether h is one of our Claude Code
// SessionStart handlers in the form installs no longer write: async, or
// without --json (its exit 2 is an error to Claude Code either way).
func oldSessionStart(h Handler, stBin string) bool {
	event, ours := OursEvent(h.Command, stBin)
	if !ours || event != hooks.SessionStart || h.Event != "SessionStart" {
		return false
	}
	return h.Async || !slices.Contains(ShellWords(h.Command), "--json")
}
