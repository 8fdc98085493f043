// Package fleet says which host each agent lives on and how fresh the
// copy of each host's data in this store is. Every host that runs
// `st sync` keeps one small record in the root, which travels with the
// rest of the store:
//
//	.st-hosts/<host>.json
//
// A record names the host, the moment it was written (At, just before a
// transfer, so a push carries it; on the host's own clock, never going
// back), the host's last successful push and pull, and the agents it
// claims. Only its host writes it, replacing it whole; st sync carries
// it from that host only, and a copy relayed through another root is
// taken when its At is later than the one already here (comparing the
// host's clock with itself).
//
// Older st versions left one file per sync, .st-hosts/<host>/<unix-ms>.json;
// those are still read (the newest of a host's wins against its current
// record by At), and Prune removes every one a current record or a newer
// legacy one supersedes.
//
// A host retired for good is forgotten with a tombstone,
// .st-hosts/<host>.forgotten: every record of that host written before
// it is ignored and pruned, here and, through the syncs, on the peers.
package fleet

import (
	"cmp"
	"encoding/json"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// Dir is the folder of host records under the root. It starts with a
// dot, so no agent listing takes it for an agent.
const Dir = ".st-hosts"

// recordExt and forgottenExt end a host's current record and its tombstone.
const (
	recordExt    = ".json"
	forgottenExt = ".forgotten"
)

// DefaultStaleAfter is how long a host may go without syncing before it
// is flagged when the caller sets no other limit.
const DefaultStaleAfter = 15 * time.Minute

// maxRecord bounds what a record read costs: a peer's planted huge file
// is treated as no record.
const maxRecord = 1 << 20

// Record is one host's record. Field order is the file's.
type Record struct {
	Host string `json:"host"`
	// At is when the record was written (unix ms): the time of the snapshot
	// of the host's data that travels with it.
	At int64 `json:"at"`
	// LastOK is the newer of LastPush and LastPull, for st versions that
	// know only one (unix ms), 0 if none.
	LastOK int64 `json:"lastOK"`
	// LastPush and LastPull are the host's last successful push and pull
	// (unix ms), 0 if none. A record from before they existed has only
	// LastOK; Records reads it into both.
	LastPush int64 `json:"lastPush,omitempty"`
	LastPull int64 `json:"lastPull,omitempty"`
	// PushFailing and PullFailing are when pushes or pulls began to fail
	// (the first failure after the last success, unix ms), 0 while they
	// work.
	PushFailing int64 `json:"pushFailing,omitempty"`
	PullFailing int64 `json:"pullFailing,omitempty"`
	// PushTried and PullTried are the host's last push and pull, whatever
	// their outcome (unix ms), 0 in records from before they existed. A
	// direction not tried for the stale limit is no longer how the host
	// syncs (a hub's spoke turned mesh host with `serve push` never pulls
	// again): its old failure or age must not mark the host for ever.
	PushTried int64 `json:"pushTried,omitempty"`
	PullTried int64 `json:"pullTried,omitempty"`
	// Peers are the peers (by peers.yaml name) the host's transfers to or
	// from are failing, keyed "push <peer>" or "pull <peer>": one failing
	// peer among working ones, which the direction's failure above (reset
	// by the next peer's success) does not keep. Nil while none fails.
	Peers map[string]PeerFailure `json:"peersFailing,omitempty"`
	// Agents maps each agent that wrote its own state on the host lately
	// to the time of its newest write there (its home mark, home.go, on
	// the host's clock): what older versions decide homes by, and what
	// the double-claim warning compares.
	Agents map[string]int64 `json:"agents"`
	// Claims maps each agent the host claims as its home to the claim's
	// generation (claim.go): a move to another host claims one more than
	// the newest claim it knows, so every host orders the claims the same
	// way without comparing clocks. Nil in records of older versions,
	// whose Agents are claims of generation 0.
	Claims map[string]int64 `json:"claims"`
	// Foreign is what older versions wrote (agents that first arrived by
	// a pull); it is read and dropped.
	Foreign []string `json:"foreign,omitempty"`
}

// PeerFailure is one failing direction to one peer: since the first
// failure after its last success, and its last try (unix ms).
type PeerFailure struct {
	Since int64 `json:"since"`
	Tried int64 `json:"tried"`
}

// HostName turns a machine's name into a record name: letters, digits,
// '.', '-' and '_' kept, anything else '-', no leading dot. "" means no
// usable name (no records are written).
func HostName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '-'
		}
	}
	return strings.TrimLeft(string(b), ".")
}

// RecordPath is host's current record, relative to the root.
func RecordPath(host string) string { return Dir + "/" + host + recordExt }

// ForgottenPath is host's tombstone, relative to the root.
func ForgottenPath(host string) string { return Dir + "/" + host + forgottenExt }

// entry is what the folder holds for one host.
type entry struct {
	current   *Record  // <host>.json
	legacy    []string // <host>/<ms>.json names, newest first
	forgotten int64    // <host>.forgotten's time, 0 if none
}

// scan reads the folder of records.
func scan(t *fsutil.Tree) map[string]*entry {
	out := map[string]*entry{}
	if t == nil {
		return out
	}
	ents, err := t.ReadDir(Dir)
	if err != nil {
		return out
	}
	get := func(h string) *entry {
		if out[h] == nil {
			out[h] = &entry{}
		}
		return out[h]
	}
	for _, e := range ents {
		name := e.Name()
		switch {
		case e.IsDir():
			if valid(name) {
				if recs := newestFirst(t, name); len(recs) > 0 {
					get(name).legacy = recs
				}
			}
		case e.Type().IsRegular() && strings.HasSuffix(name, recordExt):
			h := strings.TrimSuffix(name, recordExt)
			if r, ok := readRecord(t, Dir+"/"+name, h); ok {
				get(h).current = &r
			}
		case e.Type().IsRegular() && strings.HasSuffix(name, forgottenExt):
			h := strings.TrimSuffix(name, forgottenExt)
			if r, ok := readRecord(t, Dir+"/"+name, h); ok {
				get(h).forgotten = r.At
			}
		}
	}
	return out
}

func valid(h string) bool { return h != "" && HostName(h) == h }

// ReadRecord reads a record of host h kept at rel (st sync reads the copy
// a pull put aside, Syncer.settle).
func ReadRecord(t *fsutil.Tree, rel, h string) (Record, bool) { return readRecord(t, rel, h) }

// readRecord reads one record of host h (a record or a tombstone).
func readRecord(t *fsutil.Tree, rel, h string) (Record, bool) {
	if !valid(h) {
		return Record{}, false
	}
	data, _, err := t.ReadHeadTail(rel, maxRecord)
	var r Record
	if err != nil || len(data) > maxRecord || json.Unmarshal(data, &r) != nil || r.Host != h {
		return Record{}, false
	}
	if r.LastPush == 0 && r.LastPull == 0 {
		r.LastPush, r.LastPull = r.LastOK, r.LastOK
	}
	r.Foreign = nil
	return r, true
}

// newest is the host's newest readable record, current or legacy.
func (e *entry) newest(t *fsutil.Tree, h string) (Record, bool) {
	r, _, ok := e.newestFrom(t, h)
	return r, ok
}

// newestFrom is newest, with the name of the legacy record it came
// from ("" for the current record).
func (e *entry) newestFrom(t *fsutil.Tree, h string) (best Record, legacy string, found bool) {
	if e.current != nil {
		best, found = *e.current, true
	}
	for _, name := range e.legacy {
		if ms, _ := recordTime(name); found && ms <= best.At {
			break
		}
		if r, ok := readRecord(t, Dir+"/"+h+"/"+name, h); ok {
			if !found || r.At > best.At {
				best, legacy, found = r, name, true
			}
			break
		}
	}
	if found && best.At <= e.forgotten {
		return Record{}, "", false
	}
	return best, legacy, found
}

// Records reads the newest record of every host not forgotten since,
// keyed by host. Files that are not records are ignored.
func Records(t *fsutil.Tree) map[string]Record {
	out := map[string]Record{}
	for h, e := range scan(t) {
		if r, ok := e.newest(t, h); ok {
			out[h] = r
		}
	}
	return out
}

// newestFirst lists host h's legacy record names, newest first.
func newestFirst(t *fsutil.Tree, h string) []string {
	names, err := t.ReadDirNames(Dir + "/" + h)
	if err != nil {
		return nil
	}
	var recs []string
	for _, n := range names {
		if _, ok := recordTime(n); ok {
			recs = append(recs, n)
		}
	}
	slices.SortFunc(recs, func(a, b string) int {
		x, _ := recordTime(a)
		y, _ := recordTime(b)
		return cmp.Compare(y, x)
	})
	return recs
}

func recordTime(name string) (int64, bool) {
	digits, ok := strings.CutSuffix(name, ".json")
	if !ok || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	ms, err := strconv.ParseInt(digits, 10, 64)
	return ms, err == nil
}

// Write replaces r.Host's record with r and prunes (Prune), returning
// what the prune removed. Its At never goes back: a record for an
// instant no later than the one it replaces is written one millisecond
// after it.
func Write(t *fsutil.Tree, r Record) ([]string, error) {
	if err := t.MkdirAll(Dir); err != nil {
		return nil, err
	}
	if e := scan(t)[r.Host]; e != nil {
		if old, ok := e.newest(t, r.Host); ok && old.At >= r.At {
			r.At = old.At + 1
		}
	}
	if r.LastPush == 0 && r.LastPull == 0 { // a caller that knows only LastOK
		r.LastPush, r.LastPull = r.LastOK, r.LastOK
	}
	r.LastOK = max(r.LastPush, r.LastPull)
	r.Foreign = nil
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if err := t.WriteAtomic(RecordPath(r.Host), data); err != nil {
		return nil, err
	}
	return Prune(t), nil
}

// Forget writes host's tombstone at now: its records written until then
// are ignored and pruned everywhere the tombstone reaches. It returns
// what the prune removed here.
func Forget(t *fsutil.Tree, host string, now time.Time) ([]string, error) {
	if !valid(host) {
		return nil, fs.ErrInvalid
	}
	if err := t.MkdirAll(Dir); err != nil {
		return nil, err
	}
	at := now.UnixMilli()
	if e := scan(t)[host]; e != nil {
		if r, ok := e.newest(t, host); ok && r.At > at {
			at = r.At // a record from a clock ahead is forgotten too
		}
	}
	data, err := json.Marshal(Record{Host: host, At: at, Agents: map[string]int64{}})
	if err != nil {
		return nil, err
	}
	if err := t.WriteAtomic(ForgottenPath(host), data); err != nil {
		return nil, err
	}
	return Prune(t), nil
}

// Prune removes every record something newer supersedes: a host's
// legacy records once it has a current record that is at least as new,
// all but its newest legacy record otherwise, and every record of a
// forgotten host written before its tombstone. It returns the removed
// paths, relative to the root, so a sync can remove them on a peer too.
// An emptied legacy folder stays: removing a file on a peer by name
// (rsync --delete-missing-args) wants its folder on this side.
func Prune(t *fsutil.Tree) []string {
	var removed []string
	rm := func(rel string) {
		if t.Remove(rel) == nil {
			removed = append(removed, rel)
		}
	}
	for h, e := range scan(t) {
		_, keep, _ := e.newestFrom(t, h)
		for _, name := range e.legacy {
			if name != keep {
				rm(Dir + "/" + h + "/" + name)
			}
		}
		if e.current != nil && e.current.At <= e.forgotten {
			rm(RecordPath(h))
		}
	}
	slices.Sort(removed)
	return removed
}
