package dashboard

import (
	"cmp"
	"slices"
	"time"

	"github.com/smalltalk-go/st/attention"
)

// StaleAfter is how long a busy agent may stay silent before the fleet
// page says so (attention.StaleAfter).
const StaleAfter = attention.StaleAfter

// Group is one attention group of the fleet page.
type Group = attention.Group

// groups are the attention groups, most urgent first.
var groups = attention.Groups

// groupRank is each group's place in the order.
func groupRank(key string) int { return attention.Rank(key) }

// validGroup reports whether key names a group.
func validGroup(key string) bool { return attention.Valid(key) }

// attend sets r's group and the time it entered it, from its status and
// activity, as of now (attention.Classify).
func (r *Row) attend(now time.Time) {
	a := attention.Activity{Waiting: r.Waiting, APIError: r.APIError, Thrash: r.Thrash, LastEvent: r.LastEvent}
	r.Group, r.Since = attention.Classify(a.Signals(r.Status, r.Claimed, r.LastActivity), now)
}

// Alarm reports whether the row's group needs a person.
func (r *Row) Alarm() bool { return attention.Alarm(r.Group) }

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
	slices.SortFunc(rows, func(a, b Row) int { return attention.Compare(a.Group, a.Since, a.ID, b.Group, b.Since, b.ID) })
}
