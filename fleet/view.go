package fleet

import (
	"cmp"
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
	// Stale is set when SyncedAt is missing or older than the limit, or
	// when the host's pushes or pulls are failing.
	Stale bool `json:"stale"`
	// PushedAt and PulledAt (unix ms) are the host's last successful push
	// and pull, as its newest record here says; nil when none.
	PushedAt *int64 `json:"pushedAt,omitempty"`
	PulledAt *int64 `json:"pulledAt,omitempty"`
	// Failing is "push", "pull" or "push and pull" while the host's
	// transfers in that direction fail (since FailingSince, unix ms).
	Failing      string `json:"failing,omitempty"`
	FailingSince *int64 `json:"failingSince,omitempty"`
	// FailingPeers are the peers the host's transfers are failing with,
	// each direction once, sorted: one failing peer shows here while the
	// others work.
	FailingPeers []FailingPeer `json:"failingPeers,omitempty"`
}

// FailingPeer is one direction to one peer that is failing.
type FailingPeer struct {
	Direction string `json:"direction"` // push or pull
	Peer      string `json:"peer"`      // its peers.yaml name
	Since     int64  `json:"since"`     // unix ms
}

// Fleet is the hosts known to a store and which one each agent lives on.
type Fleet struct {
	Hosts  []Host              // sorted by name
	agents map[string]string   // agent id -> host name
	others map[string][]string // agent id -> the other hosts claiming it lately
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
	f := Fleet{agents: Owners(recs), others: DoubleClaims(recs)}
	for name, r := range recs {
		r = r.inUse(staleAfter)
		h := Host{Name: name, Local: name == local}
		at := r.At
		if h.Local {
			at = localSynced(r)
		}
		if at > 0 {
			h.SyncedAt = &at
		}
		if r.LastPush > 0 {
			h.PushedAt = &r.LastPush
		}
		if r.LastPull > 0 {
			h.PulledAt = &r.LastPull
		}
		var failing []string
		var since int64
		for _, d := range []struct {
			name string
			at   int64
		}{{"push", r.PushFailing}, {"pull", r.PullFailing}} {
			if d.at > 0 {
				failing = append(failing, d.name)
				if since == 0 || d.at < since {
					since = d.at
				}
			}
		}
		if len(failing) > 0 {
			h.Failing, h.FailingSince = strings.Join(failing, " and "), &since
		}
		h.FailingPeers = failingPeers(r, staleAfter)
		h.Stale = at == 0 || now.Sub(time.UnixMilli(at)) > staleAfter || h.Failing != "" || len(h.FailingPeers) > 0
		f.Hosts = append(f.Hosts, h)
	}
	slices.SortFunc(f.Hosts, func(a, b Host) int { return strings.Compare(a.Name, b.Name) })
	return f
}

// inUse is r without the direction the host has stopped trying: one
// whose last try is more than staleAfter older than the record. Records
// that do not say when a direction was tried keep both.
func (r Record) inUse(staleAfter time.Duration) Record {
	retired := func(tried int64) bool {
		return tried > 0 && r.At-tried > staleAfter.Milliseconds()
	}
	if retired(r.PushTried) {
		r.LastPush, r.PushFailing = 0, 0
	}
	if retired(r.PullTried) {
		r.LastPull, r.PullFailing = 0, 0
	}
	return r
}

// failingPeers are r's failing peers, sorted, leaving out one the host
// has not tried for staleAfter (gone from its peers.yaml).
func failingPeers(r Record, staleAfter time.Duration) []FailingPeer {
	var out []FailingPeer
	for key, f := range r.Peers {
		dir, peer, ok := strings.Cut(key, " ")
		if !ok || r.At-f.Tried > staleAfter.Milliseconds() {
			continue
		}
		out = append(out, FailingPeer{Direction: dir, Peer: peer, Since: f.Since})
	}
	slices.SortFunc(out, func(a, b FailingPeer) int {
		return cmp.Or(strings.Compare(a.Peer, b.Peer), strings.Compare(a.Direction, b.Direction))
	})
	return out
}

// localSynced is when this machine's store was last brought up to date:
// the older of its last push and last pull, leaving out a direction it
// never tried (a host that only pulls), 0 when a direction it tried never
// worked. A host whose pushes fail is not up to date because its pulls
// work.
func localSynced(r Record) int64 {
	at := int64(-1)
	for _, d := range [][2]int64{{r.LastPush, r.PushFailing}, {r.LastPull, r.PullFailing}} {
		switch ok, failing := d[0], d[1]; {
		case ok == 0 && failing == 0:
		case ok == 0:
			return 0
		case at < 0 || ok < at:
			at = ok
		}
	}
	return max(at, 0)
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

// OtherClaims lists the hosts other than its home that claim agent id
// with a claim close to the home's (DoubleClaimWindow), sorted: the agent
// writes on more than one host.
func (f Fleet) OtherClaims(id string) []string { return f.others[id] }

// DoubleClaimWindow is how close to the winning claim another host's
// claim of the same agent must be to count as a double claim rather
// than a home the agent has left: an agent active on two hosts refreshes
// both claims every few minutes (home.go).
const DoubleClaimWindow = time.Hour

// DoubleClaims maps each agent that wrote its own state on another host
// than its home within DoubleClaimWindow of its newest write at home to
// those other hosts, sorted. (The window compares two hosts' clocks: it
// only decides a warning, never which copy wins.)
func DoubleClaims(recs map[string]Record) map[string][]string {
	owners := Owners(recs)
	out := map[string][]string{}
	for host, r := range recs {
		for id, at := range r.Agents {
			home, ok := owners[id]
			if ok && host != home && recs[home].Agents[id]-at <= DoubleClaimWindow.Milliseconds() {
				out[id] = append(out[id], host)
			}
		}
	}
	for _, hs := range out {
		slices.Sort(hs)
	}
	return out
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
// "here" for this machine, "PUSH FAILING for 2m" while its pushes fail
// and "STALE" when it is stale.
func (h Host) Ago(now time.Time) string {
	s := h.Name
	if h.Local {
		s += " (here)"
	}
	ago := func(ms int64) string { return age(now.Sub(time.UnixMilli(ms))) + " ago" }
	switch {
	case h.SyncedAt == nil:
		s += ", never synced"
	case h.Local && h.Failing == "" && h.PushedAt != nil && h.PulledAt != nil && absMs(*h.PushedAt-*h.PulledAt) >= time.Minute.Milliseconds():
		// Each direction's last success: "synced" would be the older one
		// alone, and a host pushing every few seconds is not 5m behind.
		s += ", pushed " + ago(*h.PushedAt) + ", pulled " + ago(*h.PulledAt)
	default:
		s += ", synced " + ago(*h.SyncedAt)
	}
	for i := 0; i < len(h.FailingPeers); i++ { // sorted by peer, pull before push
		p, what := h.FailingPeers[i], ""
		switch {
		case i+1 < len(h.FailingPeers) && h.FailingPeers[i+1].Peer == p.Peer:
			what = "PUSH AND PULL WITH "
			p.Since = min(p.Since, h.FailingPeers[i+1].Since)
			i++
		case p.Direction == "pull":
			what = "PULL FROM "
		default:
			what = "PUSH TO "
		}
		s += ", " + what + p.Peer + " FAILING for " + age(now.Sub(time.UnixMilli(p.Since)))
	}
	if h.Failing != "" && len(h.FailingPeers) == 0 { // older records name no peer
		s += ", " + strings.ToUpper(h.Failing) + " FAILING"
		if h.FailingSince != nil {
			s += " for " + age(now.Sub(time.UnixMilli(*h.FailingSince)))
		}
	}
	if h.Stale {
		s += ", STALE"
	}
	return s
}

func absMs(d int64) int64 { return max(d, -d) }

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
