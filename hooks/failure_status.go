package hooks

import (
	"context"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/status"
)

// The agent's status across an API failure. StopFailure's policy may set
// a status (away, offline); the session's state remembers the status the
// agent had before, and when a later turn of the session ends normally
// (Stop, after a retry or a new prompt) the failure is over and the
// status goes back to it, unless someone set another status meanwhile.

// statusNow is the state in the agent's status file, ignoring its age;
// "offline" when there is none (as status.Effective reads it).
func statusNow(t *fsutil.Tree, agent string) string {
	data, _, err := t.ReadRegular(agent + "/status")
	if err != nil {
		return "offline"
	}
	return status.Normalize(string(data))
}

// NoteFailureStatus records in the session's state that a failure set
// the agent's status to set, over before. A streak of failures keeps the
// status from before the first.
func NoteFailureStatus(ctx context.Context, t *fsutil.Tree, agent, session, before, set string) error {
	if session == "" {
		return nil
	}
	return UpdateState(ctx, t, agent, session, func(s *State) bool {
		if s.StatusBefore == "" {
			s.StatusBefore = before
		}
		s.StatusFailed = set
		return true
	})
}

// RestoreStatus ends a session's failure: the agent's status goes back
// to what it was before, if it still is what the failure set. Without a
// failure it costs one read of the state, no lock.
func RestoreStatus(ctx context.Context, t *fsutil.Tree, agent, session string) {
	if session == "" {
		return
	}
	if peek, ok := peekState(t, agent, session); !ok || peek.StatusBefore == "" {
		return
	}
	_ = UpdateState(ctx, t, agent, session, func(s *State) bool { // best effort: the hook answers whether or not its state is saved
		if s.StatusBefore == "" {
			return false
		}
		if statusNow(t, agent) == s.StatusFailed && status.IsSettable(s.StatusBefore) {
			_ = status.Set(t, agent, s.StatusBefore) // best effort: a status not written reads as stale, which is the truth
		}
		s.StatusBefore, s.StatusFailed = "", ""
		return true
	})
}
