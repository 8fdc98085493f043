package dashboard

import (
	"cmp"
	"slices"
	"time"
)

// StaleAfter is how long a busy agent may stay silent (no hook event, no
// file change) before the fleet page says so. An agent whose busy status
// has aged into unknown counts too.
const StaleAfter = 10 * time.Minute

// Group is one attention group of the fleet page.
type Group struct {
	Key   string // in URLs (?show=) and CSS classes
	Label string // for the header counts
	Alarm bool   // needs a person: counted in the page title
}

// groups are the attention groups, most urgent first: trouble (someone
// must look), then the statuses agents set themselves.
var groups = []Group{
	{"waiting", "waiting on a human", true},
	{"api-error", "stopped by an API error", true},
	{"thrashing", "thrashing", true},
	{"stale", "busy but silent", true},
	{"busy", "busy", false},
	{"available", "available", false},
	{"away", "away", false},
	{"dnd", "dnd", false},
	{"unknown", "unknown", false},
	{"offline", "offline", false},
}

// groupRank is each group's place in the order.
var groupRank = func() map[string]int {
	m := map[string]int{}
	for i, g := range groups {
		m[g.Key] = i
	}
	return m
}()

// validGroup reports whether key names a group.
func validGroup(key string) bool { _, ok := groupRank[key]; return ok }

// attend sets r's group and the time it entered it, from its status and
// activity, as of now.
func (r *Row) attend(now time.Time) {
	last := r.lastSeen()
	switch {
	case r.Waiting != nil:
		r.Group = "waiting"
		r.Since, _ = time.Parse(time.RFC3339Nano, r.Waiting.Since)
	case r.APIError != nil:
		r.Group, r.Since = "api-error", r.APIError.Since
	case r.Thrash != nil:
		r.Group, r.Since = "thrashing", r.Thrash.Since
	case (r.Status == "busy" || r.Status == "unknown" && r.Claimed == "busy") && now.Sub(last) > StaleAfter:
		r.Group, r.Since = "stale", last
	case validGroup(r.Status):
		r.Group, r.Since = r.Status, last
	default:
		r.Group, r.Since = "unknown", last
	}
}

// lastSeen is the newest sign of life: a hook event or a file change.
func (r *Row) lastSeen() time.Time {
	t := r.LastEvent
	if la := time.UnixMilli(int64(r.LastActivity)); r.LastActivity > 0 && la.After(t) {
		t = la
	}
	return t
}

// Alarm reports whether the row's group needs a person.
func (r *Row) Alarm() bool { return validGroup(r.Group) && groups[groupRank[r.Group]].Alarm }

// Orders of the fleet page (?order=).
const (
	orderAttention = "attention"
	orderName      = "name"
)

// sortRows orders rows: by attention (group, then the longest in it
// first, then name), or by name.
func sortRows(rows []Row, order string) {
	if order == orderName {
		slices.SortFunc(rows, func(a, b Row) int { return cmp.Compare(a.ID, b.ID) })
		return
	}
	slices.SortFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(groupRank[a.Group], groupRank[b.Group]), a.Since.Compare(b.Since), cmp.Compare(a.ID, b.ID))
	})
}
