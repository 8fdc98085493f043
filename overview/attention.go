package overview

import (
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/events"
)

// attentionSection writes "Needs attention (<n>):" and one line per
// agent that needs a person, in the dashboard's order (waiting, API
// error, thrashing, busy but silent; the longest in its group first),
// each followed by where to go when that is known. Nothing when no agent
// needs a person, so a quiet store prints what it always did.
func attentionSection(line func(string), members []agents.Enriched, now time.Time) {
	var need []agents.Enriched
	for _, m := range members {
		if m.Attention != nil {
			need = append(need, m)
		}
	}
	if len(need) == 0 {
		return
	}
	need = slices.Clone(need)
	agents.SortByAttention(need)
	line("")
	line("Needs attention (" + strconv.Itoa(len(need)) + "):")
	for _, m := range need {
		line("  " + AttentionLine(m, now))
		if w := m.Attention.Where; w != nil && !w.Empty() {
			line("    go to " + w.String())
		}
	}
}

// AttentionLine is "<id> <label> (<age>): <detail>", one agent that
// needs a person; m.Attention must be set.
func AttentionLine(m agents.Enriched, now time.Time) string {
	at := m.Attention
	s := pad(m.Identity, 12) + " " + at.Label
	since := events.Event{TS: at.Since}
	if t, ok := since.Time(); ok {
		s += " (" + FormatAge(math.Max(0, float64(now.Sub(t).Milliseconds()))) + ")"
	}
	if at.Detail != "" {
		s += ": " + at.Detail
	}
	return s
}
