package agents

import (
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/stackstart"
	"github.com/smalltalk-go/st/message"
)

// Entry is one name directly inside an agent's inbox/ or archive/, with
// its modification time when it could be read (stat follows a final
// symlink, within the tree).
type Entry struct {
	Name    string
	MtimeMs float64 // fractional unix ms; valid when Stat is true
	Stat    bool    // the entry could be stat'ed
	Regular bool    // a regular file
}

// Scan is one pass over an agent's activity: its inbox/ and archive/
// entries (sorted by name) and its status file. Enrich and the overview
// share it, so each file is stat'ed once.
type Scan struct {
	Inbox   []Entry
	Archive []Entry
	Status  *Entry // nil when there is no status entry
	// Activity is what the tail of the agent's latest session log says
	// (attention.Read): whether it waits on a human, stopped on an API
	// error or thrashes, and where it runs.
	Activity attention.Activity
}

// ScanAgent reads id's inbox/, archive/ and status. Missing or unreadable
// folders scan as empty.
func ScanAgent(t *fsutil.Tree, id string) Scan {
	var s Scan
	if t == nil {
		return s
	}
	s.Inbox = scanDir(t, id+"/inbox")
	s.Archive = scanDir(t, id+"/archive")
	s.Inbox = dropTwins(t, id, s.Inbox, s.Archive)
	s.Activity = attention.Read(t, id, attention.TailBytes)
	if fi, err := t.Stat(id + "/status"); err == nil {
		s.Status = &Entry{Name: "status", MtimeMs: MtimeMs(fi), Stat: true, Regular: fi.Mode().IsRegular()}
	}
	return s
}

// ScanAll scans the agents ids (scanEach); scans[i] belongs to ids[i].
func ScanAll(t *fsutil.Tree, ids []string) []Scan {
	return scanEach(t, ids, ScanAgent)
}

// agentsPerWorker is how many agents make another scanning goroutine
// worth its start: a small agent's scan is a few folder listings, and a
// worker costs a goroutine, a grown stack and, on its first run, a thread
// woken. With a worker per agent, `st overview` on 8 agents was 1.70× an
// empty Go program against 1.57× with one worker per 8 (32 agents 2.40×
// against 2.26×, 200 agents 7.50× against 7.46×; benchtimer -n 100).
const agentsPerWorker = 8

// scanEach runs scan over ids, concurrently for a big fleet; scans[i]
// belongs to ids[i].
func scanEach(t *fsutil.Tree, ids []string, scan func(*fsutil.Tree, string) Scan) []Scan {
	scans := make([]Scan, len(ids))
	workers := min(len(ids)/agentsPerWorker, 4*runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for i, id := range ids {
			scans[i] = scan(t, id)
		}
		return scans
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			stackstart.GrowDeep() // a scan reads events and messages, deep
			for i := range next {
				scans[i] = scan(t, ids[i])
			}
		})
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	return scans
}

// scanDir stats every entry of dir through the open folder: one system
// call per entry, where a path from the root takes five, and no FileInfo
// or DirEntry allocated per entry (an inbox of hundreds of messages was
// dozens of page faults of them in `st overview`). A symlink is followed
// within dir.
func scanDir(t *fsutil.Tree, dir string) []Entry {
	folder, err := t.OpenFolder(dir)
	if err != nil {
		return nil
	}
	defer folder.Close()
	names, err := folder.Names()
	if err != nil {
		return nil
	}
	slices.Sort(names)
	out := make([]Entry, len(names))
	for i, name := range names {
		e := Entry{Name: name}
		mode, mtime, ok := folder.Lstat(name)
		if ok && mode&fs.ModeSymlink != 0 {
			mode, mtime, ok = follow(t, dir, name)
		}
		if ok {
			e.MtimeMs, e.Stat, e.Regular = mtimeMs(mtime), true, mode.IsRegular()
		}
		out[i] = e
	}
	return out
}

// follow stats the symlink name of dir through its target, which must
// lie within dir.
func follow(t *fsutil.Tree, dir, name string) (fs.FileMode, time.Time, bool) {
	sub, err := t.Sub(dir)
	if err != nil {
		return 0, time.Time{}, false
	}
	defer sub.Close()
	fi, err := sub.Stat(name)
	if err != nil {
		return 0, time.Time{}, false
	}
	return fi.Mode(), fi.ModTime(), true
}

// dropTwins leaves out the inbox entries that are archived twins
// (inbox.WithoutTwins): a copy a sync brought back before the next sweep
// is neither counted nor shown. Only names in both folders are checked.
func dropTwins(t *fsutil.Tree, id string, in, archive []Entry) []Entry {
	var both []string
	for _, e := range in {
		if _, ok := slices.BinarySearchFunc(archive, e.Name, func(a Entry, n string) int { return strings.Compare(a.Name, n) }); ok {
			both = append(both, e.Name)
		}
	}
	if len(both) == 0 {
		return in
	}
	twins := slices.Clone(both)
	live := inbox.WithoutTwins(t, id, both)
	twins = slices.DeleteFunc(twins, func(n string) bool { return slices.Contains(live, n) })
	return slices.DeleteFunc(in, func(e Entry) bool { return slices.Contains(twins, e.Name) })
}

// LastActivity is the newest mtime over the inbox and archive entries and
// the status file, or nil when there is none.
func (s Scan) LastActivity() *float64 {
	var newest *float64
	consider := func(e Entry) {
		if e.Stat && (newest == nil || e.MtimeMs > *newest) {
			ms := e.MtimeMs
			newest = &ms
		}
	}
	for _, e := range s.Inbox {
		consider(e)
	}
	for _, e := range s.Archive {
		consider(e)
	}
	if s.Status != nil {
		consider(*s.Status)
	}
	return newest
}

// InboxCount is the number of canonical message names in the inbox.
func (s Scan) InboxCount() int {
	n := 0
	for _, e := range s.Inbox {
		if message.IsCanonical(e.Name) {
			n++
		}
	}
	return n
}
