package fleet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsynctest"
)

// A root's folder of home marks keeps the name earlier versions gave it
// (the first 8 bytes of SHA-256 of the root's absolute path), so marks
// written before an upgrade are still read after it.
func TestHomeKeyStays(t *testing.T) {
	key, abs := homeKey("/nonexistent/st-root")
	if key != "f4df192dd8e6fd82" || abs != "/nonexistent/st-root" {
		t.Errorf("homeKey = %s, %s", key, abs)
	}
}

// markPath is where MarkHome keeps agent's mark for root.
func markPath(stateDir, root, agent string) string {
	key, _ := homeKey(root)
	return filepath.Join(stateDir, homesDir, key, agent)
}

// An own write marks the agent's home: a new mark, a stale one moved to
// now in place (the same file), a fresh one left as it is.
func TestMarkHome(t *testing.T) {
	now := time.Date(2026, 12, 4, 21, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		age      time.Duration // of the mark already there; 0: none
		wantTime time.Time     // the mark's time after MarkHome
	}{
		{"no mark yet", 0, now},
		{"a fresh mark", 30 * time.Second, now.Add(-30 * time.Second)},
		{"a stale mark", 2 * time.Minute, now},
		{"a mark from the future (the clock went back)", -time.Hour, now},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state, root := t.TempDir(), t.TempDir()
			mark := markPath(state, root, "alice")
			var before os.FileInfo
			if tt.age != 0 {
				if err := MarkHome(state, root, "alice", now); err != nil {
					t.Fatal(err)
				}
				at := now.Add(-tt.age)
				if err := os.Chtimes(mark, at, at); err != nil {
					t.Fatal(err)
				}
				before, _ = os.Stat(mark)
			}
			if err := MarkHome(state, root, "alice", now); err != nil {
				t.Fatal(err)
			}
			after, err := os.Stat(mark)
			if err != nil {
				t.Fatalf("no mark after MarkHome: %v", err)
			}
			if tt.age == 0 {
				// A new mark's time is the write's own.
				if d := time.Since(after.ModTime()); d < 0 || d > time.Minute {
					t.Errorf("the new mark's time is %v, want about now", after.ModTime())
				}
			} else if !after.ModTime().Equal(tt.wantTime) {
				t.Errorf("the mark's time is %v, want %v", after.ModTime(), tt.wantTime)
			}
			if before != nil && !os.SameFile(before, after) {
				t.Error("the mark was replaced, not touched in place")
			}
			if got := HomeMarks(state, root); len(got) != 1 || got["alice"] != after.ModTime().UnixMilli() {
				t.Errorf("HomeMarks = %v, want alice at %d", got, after.ModTime().UnixMilli())
			}
			rootFile, err := os.ReadFile(filepath.Join(filepath.Dir(mark), "ROOT"))
			if _, abs := homeKey(root); err != nil || string(rootFile) != abs+"\n" {
				t.Errorf("ROOT = %q, %v; want %q", rootFile, err, abs+"\n")
			}
		})
	}
}

// A new mark is what claims the agent, so it is written durably; moving
// a stale mark's time needs no fsync (a crash keeps the mark, with its
// older time).
func TestMarkHomeSyncsOnlyANewMark(t *testing.T) {
	state, root := t.TempDir(), t.TempDir()
	mark := func() []string {
		return fsynctest.Synced(t, fsynctest.Helper("TestMarkHomeHelper",
			"ST_MARK_HELPER_STATE="+state, "ST_MARK_HELPER_ROOT="+root))
	}
	synced := mark()
	// The mark's temp file, renamed over it once synced.
	if all := strings.Join(synced, "\n"); !strings.Contains(all, "/.alice") {
		t.Errorf("a new mark was not synced:\n%s", all)
	}
	old := time.Now().Add(-2 * time.Minute)
	if err := os.Chtimes(markPath(state, root, "alice"), old, old); err != nil {
		t.Fatal(err)
	}
	if synced := mark(); len(synced) != 0 {
		t.Errorf("refreshing a stale mark synced:\n%s", strings.Join(synced, "\n"))
	}
	fi, err := os.Stat(markPath(state, root, "alice"))
	if err != nil || !fi.ModTime().After(old.Add(time.Minute)) {
		t.Errorf("the stale mark was not refreshed: %v, %v", fi, err)
	}
}

// TestMarkHomeHelper marks alice's home in a process of its own, for
// TestMarkHomeSyncsOnlyANewMark.
func TestMarkHomeHelper(t *testing.T) {
	state := os.Getenv("ST_MARK_HELPER_STATE")
	if state == "" {
		t.Skip("run by TestMarkHomeSyncsOnlyANewMark")
	}
	if err := MarkHome(state, os.Getenv("ST_MARK_HELPER_ROOT"), "alice", time.Now()); err != nil {
		t.Fatal(err)
	}
}
