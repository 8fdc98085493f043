package peersync

import (
	"context"
	"slices"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// pullArrivals copies from each watched peer the messages it reported
// that this host should have and does not yet, by name (copyMessages);
// the others' reports are dropped (the rounds bring everything in any
// case). A peer that asked for a whole pull (a new connection, too many
// reports) is handed to serve's loop (whole), which runs those between
// its rounds, never beside one. A peer backing off after a failed transfer is
// pulled all the same: it has just spoken over its watch, so it is up
// (a connection dropped mid-pull is the usual failure), and the report
// is about one message, not a retry loop. When a copy by name fails,
// the peer's next report brings a whole pull, which takes what that
// copy missed too.
func (s *Syncer) pullArrivals(ctx context.Context, ws *arrivalWatches, b *backoff, whole *peerQueue) {
	var some []Peer
	var lists [][]string
	var watches []*arrivalWatch
	wanted := s.wantedArrival()
	for _, w := range ws.watches() {
		got, all := w.take()
		if all {
			whole.add(w.peer)
			continue
		}
		var rels []string
		for _, a := range got {
			if wanted(a) {
				rels = append(rels, a.agent+"/inbox/"+a.name)
			}
		}
		if len(rels) > 0 {
			slices.Sort(rels)
			some, lists, watches = append(some, w.peer), append(lists, rels), append(watches, w)
		}
	}
	s.runEach(ctx, some, b, func(ps *Syncer, i int) bool {
		failed := ps.copyMessages("pull", some[i], lists[i])
		if failed {
			watches[i].pullWholeNext()
		}
		return failed
	})
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
