// Package attention is the one definition of what about an agent needs a
// person, shared by the dashboard's fleet page, `st agents`, `st overview`
// and the hooks' fleet brief: the attention groups and their order, and
// the fold of an agent's hook events that finds an agent waiting on a
// human, stopped by an API error or thrashing. It only reads.
package attention

import (
	"cmp"
	"strconv"
	"time"
)

// StaleAfter is how long a busy agent may stay silent (no hook event, no
// file change) before it counts as busy but silent. An agent whose busy
// status has aged into unknown counts too.
const StaleAfter = 10 * time.Minute

// ThrashAt is how many failures in a row of the same call count as
// thrashing.
const ThrashAt = 3

// Group is one attention group.
type Group struct {
	Key   string // in URLs (?show=), CSS classes and JSON
	Label string // for people
	Alarm bool   // needs a person
}

// The groups' keys.
const (
	Waiting   = "waiting"
	APIFailed = "api-error"
	Thrashing = "thrashing"
	Stale     = "stale"
	Unknown   = "unknown"
)

// Groups are the attention groups, most urgent first: trouble (someone
// must look), then the statuses agents set themselves.
var Groups = []Group{
	{Waiting, "waiting on a human", true},
	{APIFailed, "stopped by an API error", true},
	{Thrashing, "thrashing", true},
	{Stale, "busy but silent", true},
	{"busy", "busy", false},
	{"available", "available", false},
	{"away", "away", false},
	{"dnd", "dnd", false},
	{Unknown, "unknown", false},
	{"offline", "offline", false},
}

// Rank is key's place in the order (len(Groups) for no group). A scan of
// ten rows rather than a map built at start-up, which every st command
// would pay for.
func Rank(key string) int {
	for i, g := range Groups {
		if g.Key == key {
			return i
		}
	}
	return len(Groups)
}

// Valid reports whether key names a group.
func Valid(key string) bool { return Rank(key) < len(Groups) }

// Label is the group's label ("" for no group).
func Label(key string) string {
	if !Valid(key) {
		return ""
	}
	return Groups[Rank(key)].Label
}

// Alarm reports whether the group needs a person.
func Alarm(key string) bool { return Valid(key) && Groups[Rank(key)].Alarm }

// Signals are what places an agent in a group.
type Signals struct {
	Waiting  bool
	APIError *APIError
	Thrash   *Thrash // only when thrashing (Activity.Thrashing)
	Status   string  // effective
	Claimed  string  // the state the status file names, stale or not
	LastSeen time.Time
	// WaitingSince is when the wait began (the notification's time).
	WaitingSince time.Time
}

// Classify is the agent's group as of now and when it entered it.
func Classify(s Signals, now time.Time) (group string, since time.Time) {
	switch {
	case s.Waiting:
		return Waiting, s.WaitingSince
	case s.APIError != nil:
		return APIFailed, s.APIError.Since
	case s.Thrash != nil:
		return Thrashing, s.Thrash.Since
	case (s.Status == "busy" || s.Status == "unknown" && s.Claimed == "busy") && now.Sub(s.LastSeen) > StaleAfter:
		return Stale, s.LastSeen
	case Valid(s.Status):
		return s.Status, s.LastSeen
	}
	return Unknown, s.LastSeen
}

// Compare orders two agents by attention: by group, then the longest in
// it first, then by name.
func Compare(groupA string, sinceA time.Time, idA string, groupB string, sinceB time.Time, idB string) int {
	return cmp.Or(cmp.Compare(Rank(groupA), Rank(groupB)), sinceA.Compare(sinceB), cmp.Compare(idA, idB))
}

// Detail says in a few words why an agent is in an alarm group: what it
// waits for, which API error stopped it, which call it repeats; "" for
// the other groups.
func Detail(group string, a *Activity) string {
	switch group {
	case Waiting:
		if a.Waiting == nil {
			return ""
		}
		s := a.Waiting.Type
		if q := a.Waiting.Question(); q != "" {
			s += ": \"" + q + "\""
		}
		return s
	case APIFailed:
		if a.APIError == nil {
			return ""
		}
		s := a.APIError.Class
		if s == "" {
			s = "error"
		}
		if a.APIError.Attempt > 0 {
			s += ", retry " + strconv.Itoa(a.APIError.Attempt)
		}
		return s
	case Thrashing:
		th := a.Thrashing()
		if th == nil {
			return ""
		}
		s := th.Tool + " failed " + strconv.Itoa(th.Failures) + " times in a row"
		if th.Target != "" {
			s += " (" + th.Target + ")"
		}
		return s
	}
	return ""
}
