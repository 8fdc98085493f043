package peersync

import (
	"maps"
	"slices"
	"time"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
)

// outcome is what stamp records about a transfer.
type outcome int

const (
	starting outcome = iota // before it: the record a push carries
	succeeded
	failed
)

func outcomeOf(err error) outcome {
	if err != nil {
		return failed
	}
	return succeeded
}

// stamp writes this host's fleet record (fleet.Write) for a push or a
// pull: before the transfer, so a push carries it, and after it, moving
// the direction's last success or noting its failure. The host claims
// the agents that wrote their own state in this root here (their home
// marks, fleet.HomeMarks) with the generations fleet.Claimed gives
// them, so a message for bob that reaches this host first does not make
// bob live here; it gives up those another host's newer claim took
// (their marks go, fleet.Unmark), and returns them with the records the
// prune removed. Claims are compared over the records here and those of
// learned that are newer (the records a push read first, learnClaims). Without a Host it does
// nothing; a failure to write the record does not fail the sync.
func (s *Syncer) stamp(stage string, o outcome, learned map[string]fleet.Record) (pruned, yielded []string) {
	if s.Host == "" {
		return nil, nil
	}
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return nil, nil
	}
	defer t.Close()
	now := s.now().UnixMilli()
	recs := fleet.Records(t)
	own := recs[s.Host]
	rec := fleet.Record{Host: s.Host, At: now, LastPush: own.LastPush, LastPull: own.LastPull,
		PushFailing: own.PushFailing, PullFailing: own.PullFailing,
		PushTried: own.PushTried, PullTried: own.PullTried}
	marked := map[string]int64{}
	for id, at := range fleet.HomeMarks(s.StateDir, s.Root) {
		if layout.ValidAgent(id) {
			marked[id] = at
		}
	}
	rec.Claims, yielded = fleet.Claimed(withNewer(recs, learned, s.Host), s.Host, marked)
	for _, id := range yielded {
		fleet.Unmark(s.StateDir, s.Root, id, marked[id])
		delete(marked, id)
	}
	rec.Agents = fleet.Recent(own, marked, s.now())
	last, failing, tried := &rec.LastPush, &rec.PushFailing, &rec.PushTried
	if stage == "pull" {
		last, failing, tried = &rec.LastPull, &rec.PullFailing, &rec.PullTried
	}
	switch o {
	case succeeded:
		*last, *failing, *tried = now, 0, now
	case failed:
		if *failing == 0 {
			*failing = now
		}
		*tried = now
	}
	rec.Peers = notePeer(own.Peers, stage+" "+s.Peer, s.Peer != "", o, now)
	pruned, _ = fleet.Write(t, rec)
	slices.Sort(yielded)
	return pruned, yielded
}

// notePeer is the record's failing peers after a transfer's outcome o
// on key ("push <peer>" or "pull <peer>"; known false: no peer name).
func notePeer(prev map[string]fleet.PeerFailure, key string, known bool, o outcome, now int64) map[string]fleet.PeerFailure {
	out := maps.Clone(prev)
	if !known || o == starting {
		return out
	}
	if o == succeeded {
		delete(out, key)
		return out
	}
	f := out[key]
	if f.Since == 0 {
		f.Since = now
	}
	f.Tried = now
	if out == nil {
		out = map[string]fleet.PeerFailure{}
	}
	out[key] = f
	return out
}

// homes maps each claimed agent of the root to its home host
// (fleet.Owners). Without a Host it is empty: a store no host syncs has
// no owners.
func (s *Syncer) homes() map[string]string {
	if s.Host == "" {
		return nil
	}
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return nil
	}
	defer t.Close()
	return fleet.Owners(fleet.Records(t))
}

func (s *Syncer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
