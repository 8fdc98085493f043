package hooks

import (
	"github.com/smalltalk-go/st/reserve"
)

// An edit st cannot check (a shell form it does not follow, an input it
// could not read whole in time) is refused rather than let through
// unchecked, but only where a reservation could apply: when another
// agent holds an active exclusive reservation. Without one there is
// nothing to enforce, and the edit passes.

// shellRetry tells the model how to run a patch st can check.
const shellRetry = "Retry in the plain form: apply_patch with paths relative to the working folder, " +
	"or `cd DIR && apply_patch <<'EOF'` … with DIR a plain folder name (no variables, ~, cd - or other commands before it)."

// bigRetry tells the model how to make an edit st could not read whole.
const bigRetry = "Make the change in smaller edits and retry."

// unreadEdit is why an edit's input did not tell st what it edits.
func unreadEdit(tool, cut string) string {
	if tool == "" {
		tool = "tool"
	}
	return "st could not read this " + tool + " call whole, " + cut
}

// listReservations lists the active reservations (a test slows it).
var listReservations = reserve.List

// otherReservations reports whether an agent other than the caller holds
// an active exclusive reservation.
func otherReservations(c *call) bool {
	for _, r := range listReservations(c.t, c.now) {
		if r.Agent != c.opt.Agent && r.Mode == reserve.Exclusive {
			return true
		}
	}
	return false
}

// undecidedDeny returns the reason to refuse an edit st cannot check
// (why says what st cannot tell, and why), and whether to.
func undecidedDeny(c *call, why, retry string) (reason string, denied bool) {
	// Should the reservations take too long to read, the edit is refused
	// all the same: it cannot be checked.
	c.opt.early.otherwise(Result{Stdout: c.denyOut(why + ". st could not read the reservations in time either, " +
		"so it refuses this edit rather than let it through unchecked. " + retry)})
	if !otherReservations(c) {
		return "", false
	}
	return why + ". Other agents hold reservations (see them with: st reservations), " +
		"so st refuses this edit rather than let it through unchecked. " + retry, true
}
