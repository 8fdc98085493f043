package peersync

import (
	"context"
	"slices"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// pullArrivals pulls from each watched peer that reported a message
// this host should have and does not yet; the others' reports are
// dropped (the rounds bring everything in any case). A peer backing off
// after a failed transfer is pulled all the same: it has just spoken
// over its watch, so it is up (a connection dropped mid-pull is the
// usual failure), and the report is about one message, not a retry
// loop.
func (s *Syncer) pullArrivals(ctx context.Context, ws *arrivalWatches, b *backoff) {
	var due []Peer
	wanted := s.wantedArrival()
	for _, w := range ws.byPeer {
		got, all := w.take()
		if all || slices.ContainsFunc(got, wanted) {
			due = append(due, w.peer)
		}
	}
	s.runPeers(ctx, "pull", due, b)
}

// wantedArrival returns whether a message a peer reported is one to pull
// at once: one not here yet (neither in the inbox nor archived: a
// message sent from here comes back in the report too) for an agent
// that lives here, or that no host claims. A message between two other
// hosts waits for the round.
func (s *Syncer) wantedArrival() func(arrival) bool {
	var view *fleet.Fleet
	var marks map[string]int64
	return func(a arrival) bool {
		t, err := fsutil.Open(s.Root)
		if err != nil {
			return true
		}
		defer t.Close()
		for _, dir := range []string{"inbox", "archive"} {
			if _, err := t.Stat(a.agent + "/" + dir + "/" + a.name); err == nil {
				return false
			}
		}
		if s.Host == "" {
			return true // no record: the homes are not known here
		}
		if view == nil {
			f := fleet.Read(t, s.Host, s.now(), 0)
			view, marks = &f, fleet.HomeMarks(s.StateDir, s.Root)
		}
		if _, ok := marks[a.agent]; ok {
			return true
		}
		h, claimed := view.AgentHost(a.agent)
		return !claimed || h.Local
	}
}
