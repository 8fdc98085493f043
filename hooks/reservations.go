package hooks

import (
	"fmt"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/reserve"
)

// reservations reads the store's active reservations once per hook call
// (a Codex patch asks about each of its files). A file of a
// reservations folder that is not a reservation is named in the call's
// event line; the others still count, so the edit check never fails
// open because of it.
func reservations(c *call) *reserve.Set {
	if c.reservations == nil {
		c.reservations = reserve.Scan(c.t, c.now)
		if sk := c.reservations.Skipped; len(sk) > 0 && c.line != nil && c.line.Error == "" {
			note := "skipped " + sk[0].String()
			if len(sk) > 1 {
				note += fmt.Sprintf(" (and %d more)", len(sk)-1)
			}
			c.line.Error = events.Cap(termsafe.Line(note), ErrorChars)
		}
	}
	return c.reservations
}

// ReservedReason tells the model whose reservation refuses its edit of
// rel and what it can do about it.
func ReservedReason(rel string, h reserve.Reservation, now time.Time) string {
	why := ""
	if h.Reason != "" {
		why = fmt.Sprintf(" (reason: %s)", termsafe.Line(h.Reason))
	}
	return fmt.Sprintf("%s is reserved exclusively by agent %s as %s until %s (%s left)%s. "+
		"Do not edit it now: work on something else and come back after the reservation ends, "+
		"or ask %s to release it: st message send %s \"may I edit %s?\". "+
		"See who holds what with: st reservations.",
		termsafe.Line(rel), h.Agent, termsafe.Line(h.Pattern), h.Expires.UTC().Format(time.RFC3339), h.Expires.Sub(now).Round(time.Second), why,
		h.Agent, h.Agent, termsafe.Line(rel))
}
