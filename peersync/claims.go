package peersync

import (
	"fmt"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// learnClaims reads the peer's host records before a push
// (readPeerRecords). The push learns from them the claims made on other
// hosts since this host's last pull, so that it stops sending the files
// of an agent that has moved away (stamp gives it up first): without
// them, the old home's push would put its copies over the new home's on
// the hub. A pull right after the push (sync --all) decides with the
// same records (Syncer.pull): fetched before its transfer, they speak
// for files no older than the ones it takes. A read the deadline or a
// stop ended fails the push, logged as a failed push is, so that a
// frozen peer costs one deadline, not two. Without a Host, or without an
// agent whose own writes mark it at home here (fleet.HomeMarks), there
// is nothing to give up and no read: such a host sends no agent's files.
func (s *Syncer) learnClaims(from, target string) (*pulledRecords, error) {
	if s.Host == "" || len(fleet.HomeMarks(s.StateDir, s.Root)) == 0 {
		return nil, nil
	}
	return s.readPeerRecords("push", from, target, target)
}

// fetchRecords copies the top of the peer's fleet.Dir (its hosts'
// current records and tombstones, a few small files; not the legacy
// per-host folders) into dir/fleet.Dir over the same transport as the
// transfer, and reads them. A fetch that fails reads none (ok false):
// quietly when the peer has no records yet (a fresh peer, rsync exit
// 23), with a line otherwise; stopped says the deadline or a stop ended
// it.
func (s *Syncer) fetchRecords(stage, target, dir string) (recs map[string]fleet.Record, ok, stopped bool, stderr string) {
	args := []string{"--exclude=/*/"}
	code, stderr := s.rsync(target+fleet.Dir+"/", dir+"/"+fleet.Dir+"/", rsyncState{args: args})
	switch code {
	case 0:
	case -1:
		return nil, false, true, stderr
	case 23:
		return nil, false, false, ""
	default:
		fmt.Fprintf(s.Log, "# %s: no host records read from %s (rsync exit %d): going on with the ones known here\n", stage, target, code)
		return nil, false, false, ""
	}
	t, err := fsutil.Open(dir)
	if err != nil {
		return nil, false, false, ""
	}
	defer t.Close()
	return fleet.Records(t), true, false, ""
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
