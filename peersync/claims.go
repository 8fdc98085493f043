package peersync

import (
	"fmt"
	"os"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// learnClaims is a push's peerRecords. A read the deadline or a stop
// ended fails the push, logged as a failed push is, so that a frozen
// peer costs one deadline, not two. Without a Host, or without an agent
// whose own writes mark it at home here (fleet.HomeMarks), there is
// nothing to give up and no read: such a host sends no agent's files.
func (s *Syncer) learnClaims(from, target string) (map[string]fleet.Record, error) {
	if s.Host == "" || len(fleet.HomeMarks(s.StateDir, s.Root)) == 0 {
		return nil, nil
	}
	recs, stopped, stderr := s.peerRecords(target)
	if !stopped {
		return recs, nil
	}
	fmt.Fprintf(s.Log, "# push: %s -> %s\n", from, target)
	return nil, s.failure("push", from, target, -1, stderr)
}

// peerRecords fetches the host records the peer holds into a folder of
// its own outside the root, and reads them. A push learns from them the
// claims made on other hosts since this host's last pull, so that it
// stops sending the files of an agent that has moved away (stamp gives
// it up first): without them, the old home's push would put its copies
// over the new home's on the hub. They do not enter the root: only a
// pull installs records, after the files they speak for (takeRecords).
//
// A fetch that fails leaves the push to the claims known here (see
// fetchRecords); one the deadline or a stop ended (stopped) means the
// push would wait as long again: its rsync's stderr is returned for the
// push to fail with.
func (s *Syncer) peerRecords(target string) (recs map[string]fleet.Record, stopped bool, stderr string) {
	dir, err := os.MkdirTemp("", "st-claims-")
	if err != nil {
		return nil, false, ""
	}
	defer func() { _ = os.RemoveAll(dir) }() // a temp folder: nothing to report
	t, stopped, stderr := s.fetchRecords("push", target, dir)
	if t == nil {
		return nil, stopped, stderr
	}
	defer t.Close()
	return fleet.Records(t), false, ""
}

// fetchRecords copies the top of the peer's fleet.Dir (its hosts'
// current records and tombstones, a few small files; not the legacy
// per-host folders) into dir/fleet.Dir over the same transport as the
// transfer, and opens dir. A fetch that fails returns nil: quietly when
// the peer has no records yet (a fresh peer, rsync exit 23), with a line
// otherwise; stopped says the deadline or a stop ended it.
func (s *Syncer) fetchRecords(stage, target, dir string) (t *fsutil.Tree, stopped bool, stderr string) {
	args := []string{"--exclude=/*/"}
	code, stderr := s.rsync(target+fleet.Dir+"/", dir+"/"+fleet.Dir+"/", rsyncState{args: args})
	switch code {
	case 0:
	case -1:
		return nil, true, stderr
	case 23:
		return nil, false, ""
	default:
		fmt.Fprintf(s.Log, "# %s: no host records read from %s (rsync exit %d): going on with the ones known here\n", stage, target, code)
		return nil, false, ""
	}
	t, err := fsutil.Open(dir)
	if err != nil {
		return nil, false, ""
	}
	return t, false, ""
}

// withNewer is recs with each other host's record replaced by the one
// in learned when that one is newer (its At, on that host's own clock).
// This host's own record is never taken from elsewhere.
func withNewer(recs, learned map[string]fleet.Record, self string) map[string]fleet.Record {
	out := make(map[string]fleet.Record, len(recs)+len(learned))
	for h, r := range recs {
		out[h] = r
	}
	for h, r := range learned {
		if mine, ok := out[h]; h != self && (!ok || r.At > mine.At) {
			out[h] = r
		}
	}
	return out
}
