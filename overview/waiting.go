package overview

import (
	"math"

	"github.com/smalltalk-go/st/events"
)

// waitingNote is what a member line adds when the agent waits on a human
// (ours): "  ⏳ waits on a human: <type> "<question>" (<age>)".
func waitingNote(w *events.Waiting, nowMs float64) string {
	if w == nil {
		return ""
	}
	s := "  ⏳ waits on a human: " + w.Type
	if q := w.Question(); q != "" {
		s += " \"" + q + "\""
	}
	since := events.Event{TS: w.Since}
	if t, ok := since.Time(); ok {
		s += " (" + FormatAge(math.Max(0, nowMs-float64(t.UnixMilli()))) + ")"
	}
	return s
}
