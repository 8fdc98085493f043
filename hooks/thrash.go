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
	var tool, input string
	n := 0
	for i := len(evs) - 1; i >= 0; i-- {
		e := &evs[i]
		switch e.Event {
		case "PostToolUse":
			return n
		case "PostToolUseFailure":
			if e.Interrupt {
				return n
			}
			if n == 0 {
				tool, input = e.Tool, e.Input
			} else if e.Tool != tool || e.Input != input {
				return n
			}
			n++
		}
	}
	return n
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
