// Package fleet says which host each agent lives on and how fresh the
// copy of each host's data in this store is. Every host that runs
// `st sync` leaves a small record in the root, which travels with the
// rest of the store:
//
//	.st-hosts/<host>/<unix-ms>.json
//
// A record names the host, the moment it was written (At, just before a
// transfer, so a push carries it), the host's last successful transfer
// (LastOK) and the agents it claims. Records are never edited: a host
// writes a new one and every host removes all but the newest of each
// host's, so union-only sync converges on the newest (a removed one that
// comes back from a peer loses to the newer and is removed again).
package fleet

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// Dir is the folder of host records under the root. It starts with a
// dot, so no agent listing takes it for an agent.
const Dir = ".st-hosts"

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
	// LastOK is the host's last successful transfer (unix ms), 0 if none.
	LastOK int64 `json:"lastOK"`
	// Agents maps each agent the host claims to when it claimed it.
	Agents map[string]int64 `json:"agents"`
	// Foreign lists agents that first reached the host through its own
	// pull: they live elsewhere, so it never claims them.
	Foreign []string `json:"foreign,omitempty"`
}

// HostName turns a machine's name into a record folder name: letters,
// digits, '.', '-' and '_' kept, anything else '-', no leading dot. ""
// means no usable name (no records are written).
func HostName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '-'
		}
	}
	return strings.TrimLeft(string(b), ".")
}

// Records reads the newest record of every host, keyed by host. Folders
// and files that are not records are ignored.
func Records(t *fsutil.Tree) map[string]Record {
	out := map[string]Record{}
	if t == nil {
		return out
	}
	hosts, err := t.ReadDirNames(Dir)
	if err != nil {
		return out
	}
	for _, h := range hosts {
		if HostName(h) != h || h == "" {
			continue
		}
		for _, name := range newestFirst(t, h) {
			data, _, err := t.ReadHeadTail(Dir+"/"+h+"/"+name, maxRecord)
			var r Record
			if err != nil || len(data) > maxRecord || json.Unmarshal(data, &r) != nil || r.Host != h {
				continue
			}
			out[h] = r
			break
		}
	}
	return out
}

// newestFirst lists host h's record names, newest first.
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

// Write stores r as the host's newest record and removes every older
// record of every host. A record for an instant that already has one
// is written one millisecond later, so the newest is always unique.
func Write(t *fsutil.Tree, r Record) error {
	dir := Dir + "/" + r.Host
	if err := t.MkdirAll(dir); err != nil {
		return err
	}
	if latest := newestFirst(t, r.Host); len(latest) > 0 {
		if ms, _ := recordTime(latest[0]); ms >= r.At {
			r.At = ms + 1
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := t.WriteAtomic(dir+"/"+strconv.FormatInt(r.At, 10)+".json", data); err != nil {
		return err
	}
	Prune(t)
	return nil
}

// Prune removes all but the newest record of each host.
func Prune(t *fsutil.Tree) {
	hosts, err := t.ReadDirNames(Dir)
	if err != nil {
		return
	}
	for _, h := range hosts {
		recs := newestFirst(t, h)
		for _, old := range recs[min(1, len(recs)):] {
			t.Remove(Dir + "/" + h + "/" + old)
		}
	}
}
