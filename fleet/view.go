package fleet

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// Host is what this store knows of one host. Field order is the JSON
// wire order (st agents --json, st overview --json, the dashboard).
type Host struct {
	Name string `json:"name"`
	// Local is set for the machine reading the store.
	Local bool `json:"local"`
	// SyncedAt (unix ms) is when this store's copy of the host's data was
	// last brought up to date: for this machine its last successful
	// transfer, for another host the moment of its newest record here.
	// Nil when there has been none.
	SyncedAt *int64 `json:"syncedAt"`
	// Stale is set when SyncedAt is missing or older than the limit.
	Stale bool `json:"stale"`
}

// Fleet is the hosts known to a store and which one each agent lives on.
type Fleet struct {
	Hosts  []Host            // sorted by name
	agents map[string]string // agent id -> host name
}

// Read builds the fleet view of the store for the machine named local
// (a HostName) at now; a host whose data is older than staleAfter
// (DefaultStaleAfter when 0) is stale. A store no host has synced has an
// empty fleet.
func Read(t *fsutil.Tree, local string, now time.Time, staleAfter time.Duration) Fleet {
	if staleAfter <= 0 {
		staleAfter = DefaultStaleAfter
	}
	recs := Records(t)
	f := Fleet{agents: Owners(recs)}
	for name, r := range recs {
		h := Host{Name: name, Local: name == local}
		at := r.At
		if h.Local {
			at = r.LastOK
		}
		if at > 0 {
			h.SyncedAt = &at
		}
		h.Stale = at == 0 || now.Sub(time.UnixMilli(at)) > staleAfter
		f.Hosts = append(f.Hosts, h)
	}
	slices.SortFunc(f.Hosts, func(a, b Host) int { return strings.Compare(a.Name, b.Name) })
	return f
}

// AgentHost returns the host agent id lives on, if any host claims it.
func (f Fleet) AgentHost(id string) (Host, bool) {
	name, ok := f.agents[id]
	if !ok {
		return Host{}, false
	}
	for _, h := range f.Hosts {
		if h.Name == name {
			return h, true
		}
	}
	return Host{}, false
}

// Owners maps each claimed agent to its host: the earliest claim wins,
// ties go to the host whose name sorts first.
func Owners(recs map[string]Record) map[string]string {
	owner := map[string]string{}
	when := map[string]int64{}
	for host, r := range recs {
		for id, at := range r.Agents {
			prev, ok := owner[id]
			if !ok || at < when[id] || at == when[id] && host < prev {
				owner[id], when[id] = host, at
			}
		}
	}
	return owner
}

// Local is this machine's host name: name (the caller's ST_HOST) when
// set, else the system's host name, made a HostName.
func Local(name string) string {
	if name == "" {
		name, _ = os.Hostname()
	}
	return HostName(name)
}

// ParseStaleAfter reads a limit in seconds (a plain decimal number, as
// ST_SYNC_STALE_S holds); anything else, or nothing, is 0 (the default).
func ParseStaleAfter(s string) time.Duration {
	if s == "" || strings.Trim(s, "0123456789.") != "" {
		return 0
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 || v > 1e9 {
		return 0
	}
	return time.Duration(v * float64(time.Second))
}

// Ago describes a host's freshness for people: "synced 3m ago", with
// "here" for this machine and "STALE" when it is stale.
func (h Host) Ago(now time.Time) string {
	s := h.Name
	if h.Local {
		s += " (here)"
	}
	if h.SyncedAt == nil {
		s += ", never synced"
	} else {
		s += ", synced " + age(now.Sub(time.UnixMilli(*h.SyncedAt))) + " ago"
	}
	if h.Stale {
		s += ", STALE"
	}
	return s
}

func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(max(0, int(d/time.Second))) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}
