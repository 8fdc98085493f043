package peersync

import (
	"slices"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// stamp writes this host's fleet record (fleet.Write): before a transfer
// (ok false), so a push carries it; after a successful one (ok true),
// moving LastOK. The host claims the agents of the root that no other
// host claims and that did not first arrive through its own pull
// (foreign, added to the record's list). Without a Host it does nothing.
// A failure to write the record does not fail the sync.
func (s *Syncer) stamp(ok bool, foreign []string) {
	if s.Host == "" {
		return
	}
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return
	}
	defer t.Close()
	now := s.now().UnixMilli()
	recs := fleet.Records(t)
	own := recs[s.Host]
	rec := fleet.Record{Host: s.Host, At: now, LastOK: own.LastOK, Agents: map[string]int64{}, Foreign: own.Foreign}
	for id, at := range own.Agents {
		rec.Agents[id] = at
	}
	for _, id := range foreign {
		if !slices.Contains(rec.Foreign, id) {
			rec.Foreign = append(rec.Foreign, id)
		}
	}
	owners := fleet.Owners(recs)
	for _, id := range agents.IDs(t) {
		if _, claimed := owners[id]; !claimed && !slices.Contains(rec.Foreign, id) {
			rec.Agents[id] = now
		}
	}
	if ok {
		rec.LastOK = now
	}
	fleet.Write(t, rec)
}

// unclaimedIDs lists the root's agents no host's record claims.
func (s *Syncer) unclaimedIDs() []string {
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return nil
	}
	defer t.Close()
	owners := fleet.Owners(fleet.Records(t))
	var out []string
	for _, id := range agents.IDs(t) {
		if _, ok := owners[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

func (s *Syncer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
