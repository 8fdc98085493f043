package peersync

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// A host record speaks for its host's files: a record says the files of
// the host that wrote it are at least as new as the record. Every
// transfer keeps that true on both ends, so that a record can decide
// which copy of a file stands without a clock:
//
//   - a push sends a host's own record after its files (pushRecord);
//   - a pull reads the peer's records before its files (readPeerRecords),
//     takes an owner's rewritten files only when the peer's record of
//     that owner is newer than the one here (newerRecords, pullState),
//     and installs those records only once the files are in
//     (takeRecords).
//
// So a pull never writes a copy it would have to take back: when a pull
// took every file and settle put back the ones that stood, a reader
// between rsync's rename and settle's saw the peer's copy, then this
// host's again (a state going forward and back).

// incomingDir holds, under the root, the records a pull fetched until
// the files they speak for are in. It starts with a dot and no transfer
// carries it (rsyncExcludes).
const incomingDir = ".st-incoming"

// pulledRecords are the peer's host records a pull fetched before its
// files: where they lie, and what they say.
type pulledRecords struct {
	dir  string // under incomingDir; "" when none were read
	recs map[string]fleet.Record
}

// readPeerRecords fetches the peer's records (target) before a transfer
// (stage, from, to: for its log lines). A fetch the deadline or a stop
// ended fails the transfer, as its rsync would; any other failure leaves
// it to the records known here (a pull then takes no owner's files this
// time).
func (s *Syncer) readPeerRecords(stage, from, to, target string) (*pulledRecords, error) {
	out := &pulledRecords{}
	in := filepath.Join(s.Root, incomingDir)
	s.removeStaleIncoming(in)
	if err := os.MkdirAll(in, 0o777); err != nil {
		return out, nil
	}
	dir, err := os.MkdirTemp(in, "records-")
	if err != nil {
		return out, nil
	}
	recs, ok, stopped, stderr := s.fetchRecords(stage, target, dir)
	if !ok {
		_ = os.RemoveAll(dir) // a temp folder: nothing to report
	}
	if stopped {
		fmt.Fprintf(s.Log, "# %s: %s -> %s\n", stage, from, to)
		return out, s.failure(stage, from, to, -1, stderr)
	}
	if ok {
		out.dir, out.recs = dir, recs
	}
	return out, nil
}

// removeStaleIncoming removes what pulls killed long ago left in
// incomingDir (a live pull's folder is seconds old).
func (s *Syncer) removeStaleIncoming(in string) {
	ents, err := os.ReadDir(in)
	if err != nil {
		return
	}
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && s.now().Sub(fi.ModTime()) > StaleTempAge {
			_ = os.RemoveAll(filepath.Join(in, e.Name())) // best effort: the next pull looks again
		}
	}
}

// newerRecords returns the hosts, other than this one, whose record the
// peer holds is newer than the one here (or the only one), and the home
// of each claimed agent by the records here and those newer ones: a pull
// takes an agent's rewritten files only from the peer whose record of
// its home is newer.
func (s *Syncer) newerRecords(p *pulledRecords) (newer map[string]bool, owners map[string]string) {
	newer = map[string]bool{}
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return newer, nil
	}
	defer t.Close()
	mine := fleet.Records(t)
	for h, r := range p.recs {
		if m, ok := mine[h]; h != s.Host && (!ok || r.At > m.At) {
			newer[h] = true
		}
	}
	return newer, fleet.Owners(withNewer(mine, p.recs, s.Host))
}

// remove removes the fetched copies.
func (p *pulledRecords) remove() {
	if p != nil && p.dir != "" {
		_ = os.RemoveAll(p.dir) // a temp folder: nothing to report
	}
}

// takeRecords installs the peer's newer records, once the files they
// speak for are in (a transfer that failed installs none). A record that
// cannot be installed leaves the one here: the next pull takes the files
// again.
func (s *Syncer) takeRecords(p *pulledRecords, newer map[string]bool) {
	if p.dir == "" {
		return
	}
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return
	}
	defer t.Close()
	if err := t.MkdirAll(fleet.Dir); err != nil {
		return
	}
	rel, err := filepath.Rel(s.Root, p.dir)
	if err != nil {
		return
	}
	for h := range newer {
		from := filepath.ToSlash(rel) + "/" + fleet.RecordPath(h)
		if _, err := t.Lstat(from); err != nil {
			continue // a tombstone or legacy record spoke for it: they travel with the files
		}
		if err := t.Replace(from, fleet.RecordPath(h)); err != nil {
			fmt.Fprintf(s.Log, "# pull: could not take %s's record: %v\n", h, err)
		}
	}
}
