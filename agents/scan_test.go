package agents

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// scanDirViaRoot is how scanDir read a folder before it went through
// the open folder: os.Root's ReadDir, each entry's Info, a symlink
// stat'ed through a tree confined to the folder.
func scanDirViaRoot(t *fsutil.Tree, dir string) []Entry {
	sub, err := t.Sub(dir)
	if err != nil {
		return nil
	}
	defer sub.Close()
	des, err := sub.ReadDir(".")
	if err != nil {
		return nil
	}
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	out := make([]Entry, len(des))
	for i, de := range des {
		e := Entry{Name: de.Name()}
		var fi fs.FileInfo
		if de.Type()&fs.ModeSymlink != 0 {
			fi, err = sub.Stat(de.Name())
		} else {
			fi, err = de.Info()
		}
		if err == nil {
			e.MtimeMs, e.Stat, e.Regular = MtimeMs(fi), true, fi.Mode().IsRegular()
		}
		out[i] = e
	}
	return out
}

// Every kind of entry an inbox can hold scans as it did: a message, a
// folder, a FIFO, a symlink to a message beside it, one out of the folder
// and one to nothing.
func TestScanDirEveryKindOfEntry(t *testing.T) {
	tr, root := store(t, map[string]string{
		"bob/inbox/1700000000000-aaaaaa.md":   "x",
		"bob/inbox/1700000000001-folder.md/":  "",
		"bob/archive/1700000000002-cccccc.md": "x",
		"bob/secret":                          "x",
	})
	inbox := filepath.Join(root, "bob/inbox")
	if err := syscall.Mkfifo(filepath.Join(inbox, "1700000000003-fifo00.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"1700000000004-beside.md": "1700000000000-aaaaaa.md",
		"1700000000005-escape.md": "../archive/1700000000002-cccccc.md",
		"1700000000006-secret.md": "../secret",
		"1700000000007-broken.md": "nothing.md",
	} {
		if err := os.Symlink(target, filepath.Join(inbox, name)); err != nil {
			t.Fatal(err)
		}
	}
	mt := time.Unix(1795966371, 663250000)
	setMtime(t, filepath.Join(inbox, "1700000000000-aaaaaa.md"), mt)

	got := scanDir(tr, "bob/inbox")
	if want := scanDirViaRoot(tr, "bob/inbox"); !reflect.DeepEqual(got, want) {
		t.Errorf("scanDir =\n%+v\nvia os.Root:\n%+v", got, want)
	}
	byName := map[string]Entry{}
	for _, e := range got {
		byName[e.Name] = e
	}
	for name, want := range map[string]struct{ stat, regular bool }{
		"1700000000000-aaaaaa.md": {true, true},
		"1700000000001-folder.md": {true, false},
		"1700000000003-fifo00.md": {true, false},
		"1700000000004-beside.md": {true, true},
		"1700000000005-escape.md": {false, false},
		"1700000000006-secret.md": {false, false},
		"1700000000007-broken.md": {false, false},
	} {
		e, ok := byName[name]
		if !ok || e.Stat != want.stat || e.Regular != want.regular {
			t.Errorf("%s: %+v, want stat %v regular %v", name, e, want.stat, want.regular)
		}
	}
	if e := byName["1700000000004-beside.md"]; e.MtimeMs != 1795966371663.25 {
		t.Errorf("a symlink's mtime is its target's: %v", e.MtimeMs)
	}
	if len(got) != 7 || !slices.IsSortedFunc(got, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) }) {
		t.Errorf("scanDir lists %d entries, sorted %v", len(got), got)
	}
	if scanDir(tr, "bob/nothing") != nil || scanDir(tr, "bob/secret") != nil {
		t.Error("a missing folder or a file scans as nothing")
	}
}

// scanEach gives each agent its own scan whatever the fleet's size, and
// starts another goroutine only for each agentsPerWorker agents: a small
// fleet is scanned on the calling goroutine, one agent at a time.
func TestScanEachWorkers(t *testing.T) {
	for _, n := range []int{0, 1, agentsPerWorker - 1, 2*agentsPerWorker - 1, 2 * agentsPerWorker, 100} {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("a%03d", i)
		}
		var mu sync.Mutex
		running, most := 0, 0
		scans := scanEach(nil, ids, func(_ *fsutil.Tree, id string) Scan {
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			time.Sleep(time.Millisecond) // long enough for the workers' scans to overlap
			mu.Lock()
			running--
			mu.Unlock()
			return Scan{Status: &Entry{Name: id}}
		})
		for i, s := range scans {
			if s.Status == nil || s.Status.Name != ids[i] {
				t.Fatalf("%d agents: scans[%d] is not %s's", n, i, ids[i])
			}
		}
		workers := max(1, min(n/agentsPerWorker, 4*runtime.GOMAXPROCS(0)))
		if got := most; got > workers || n < 2*agentsPerWorker && got > 1 {
			t.Errorf("%d agents: %d scans at once, want at most %d", n, got, workers)
		}
	}
}
