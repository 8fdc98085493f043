package hooks

import (
	"fmt"

	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/events"
)

// ThrashAt is how many failures in a row of the same call count as
// thrashing.
const ThrashAt = attention.ThrashAt

// FailStreak counts how many times in a row the session's last tool
// outcome failed with the same tool and the same input. evs is the
// session's recent events, oldest first, ending with the current
// failure; any other tool outcome, or an interrupt, ends the streak.
func FailStreak(evs []events.Event) int {
	var s failStreak
	for i := len(evs) - 1; i >= 0; i-- {
		if !s.add(&evs[i]) {
			break
		}
	}
	return s.n
}

// failStreak counts FailStreak's streak from the newest event back, so
// the hook stops reading its log where the streak ends.
type failStreak struct {
	tool, input string
	n           int
}

// add takes the next older event; false once the streak has ended.
func (s *failStreak) add(e *events.Event) bool {
	switch e.Event {
	case "PostToolUse":
		return false
	case "PostToolUseFailure":
		if e.Interrupt {
			return false
		}
		if s.n == 0 {
			s.tool, s.input = e.Tool, e.Input
		} else if e.Tool != s.tool || e.Input != s.input {
			return false
		}
		s.n++
	}
	return true
}

// ThrashAdvice is the additionalContext for a failure streak of n calls
// of toolName: said at 3 and again at every further multiple of 3, else "".
func ThrashAdvice(toolName string, n int) string {
	if n < ThrashAt || n%ThrashAt != 0 {
		return ""
	}
	return fmt.Sprintf("This %s call has now failed %d times in a row with the same input. "+
		"Repeating it unchanged is unlikely to work: read the error, check the assumption behind the call, and try a different approach.",
		toolName, n)
}
