package reserve

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// The listing and the edit check with 1,000 active reservations (10
// agents x 100, one repository): reading them is the floor, comparing
// them must not add more than it. Run:
//
//	go test ./reserve -run '^$' -bench . -benchmem
//
// scripts/bench times `st reservations` over the same store against
// scripts/readfloor.

// populate writes agents x per reservations of one repository into root,
// as st writes them: mostly disjoint folders, files and globs, with a
// few patterns that start with a wildcard and a few clashing pairs.
func populate(tb testing.TB, root string, agents, per int, wild bool) {
	tb.Helper()
	if err := Populate(root, "/repo", agents, per, wild); err != nil {
		tb.Fatal(err)
	}
}

func benchStore(b *testing.B, wild bool) *fsutil.Tree {
	root := b.TempDir()
	populate(b, root, 10, 100, wild)
	t, err := fsutil.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { t.Close() })
	return t
}

var benchNow = time.UnixMilli(1_800_000_000_000)

// BenchmarkRead is the floor: the files read, nothing parsed.
func BenchmarkRead(b *testing.B) {
	t := benchStore(b, false)
	buf := make([]byte, MaxFileSize+1)
	for b.Loop() {
		for a := 1; a <= 10; a++ {
			f, err := t.OpenFolder(fmt.Sprintf("agent%d/%s", a, Folder))
			if err != nil {
				b.Fatal(err)
			}
			names, _ := f.RegularNames()
			for _, n := range names {
				f.ReadStart(n, buf)
			}
			f.Close()
		}
	}
}

// BenchmarkList is `st reservations`: every active one and the conflicts.
func BenchmarkList(b *testing.B) {
	t := benchStore(b, false)
	for b.Loop() {
		set := Scan(t, benchNow)
		if len(set.Active) != 1000 {
			b.Fatalf("%d reservations", len(set.Active))
		}
		set.Conflicts()
	}
}

// BenchmarkListWild is BenchmarkList when every pattern starts with a
// wildcard, so no prefix tells pairs apart: the worst case.
func BenchmarkListWild(b *testing.B) {
	t := benchStore(b, true)
	for b.Loop() {
		Scan(t, benchNow).Conflicts()
	}
}

// BenchmarkHolder is the edit hooks' question about one path.
func BenchmarkHolder(b *testing.B) {
	t := benchStore(b, false)
	repo := Where{Top: "/repo"}
	for b.Loop() {
		if _, ok := Scan(t, benchNow).Holder("agent1", repo, "pkg7/sub40/x.go"); !ok {
			b.Fatal("not held")
		}
	}
}

func TestPopulate(t *testing.T) {
	root := t.TempDir()
	populate(t, root, 3, 40, false)
	list := List(mustOpen(t, root), benchNow)
	if len(list) != 120 {
		t.Fatalf("%d reservations, want 120", len(list))
	}
	c := Conflicts(list)
	if len(c) == 0 {
		t.Errorf("no conflicts among the planted clashing pairs")
	}
	// The sweep finds what comparing every pair finds.
	want := map[string]bool{}
	for i, a := range list {
		for _, b := range list[i+1:] {
			if Clashes(a, b) {
				want[a.ID], want[b.ID] = true, true
			}
		}
	}
	if fmt.Sprint(c) != fmt.Sprint(want) {
		t.Errorf("Conflicts = %v\nevery pair gives %v", c, want)
	}
	if _, err := os.Stat(filepath.Join(root, "agent1", Folder)); err != nil {
		t.Fatal(err)
	}
}

func mustOpen(t *testing.T, root string) *fsutil.Tree {
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

// BenchmarkConflicts is the comparison alone, the files read once.
func BenchmarkConflicts(b *testing.B) {
	set := Scan(benchStore(b, false), benchNow)
	for b.Loop() {
		set.Conflicts()
	}
}

// BenchmarkConflictsWild is BenchmarkConflicts in the worst case.
func BenchmarkConflictsWild(b *testing.B) {
	set := Scan(benchStore(b, true), benchNow)
	for b.Loop() {
		set.Conflicts()
	}
}
