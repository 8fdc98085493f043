package fsutil

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A burst of rewrites and appends leaves every file stamped with the
// clock, never ahead of it, and each rewrite with a time of its own to
// the nanosecond (what st sync's quick check tells versions apart by);
// a copy that came from a clock ahead does not pull the next rewrite
// along.
func TestBurstStaysOnTheClock(t *testing.T) {
	tr, dir := open(t)
	mtime := func(rel string) time.Time {
		fi, err := os.Stat(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	ahead := time.Now().Add(time.Hour)
	for _, rel := range []string{"status", "log.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte("{}\n"), 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(dir, rel), ahead, ahead); err != nil {
			t.Fatal(err)
		}
	}
	var prev time.Time
	for i := range 100 {
		if err := tr.WriteAtomic("status", []byte{byte('a' + i%26), '\n'}); err != nil {
			t.Fatal(err)
		}
		if err := tr.AppendLine(context.Background(), "log.jsonl", []byte("{}\n")); err != nil {
			t.Fatal(err)
		}
		if err := tr.Append("flush.log", []byte("x\n")); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		for _, rel := range []string{"status", "log.jsonl", "flush.log"} {
			if got := mtime(rel); got.After(now) {
				t.Fatalf("write %d: %s stamped %v, ahead of the clock (%v)", i, rel, got, now)
			}
		}
		if got := mtime("status"); !got.After(prev) {
			t.Fatalf("write %d: status stamped %v, not after the rewrite before (%v)", i, got, prev)
		}
		prev = mtime("status")
	}
}

// Clock is the seam for a host whose clock is off: its writes carry
// that clock's time, and so do those through a sub-tree of it.
func TestClockStampsWrites(t *testing.T) {
	tr, dir := open(t)
	skewed := time.Now().Add(-10 * time.Minute).Truncate(time.Millisecond)
	c := tr.Clock(func() time.Time { return skewed })
	if err := c.MkdirAll("bob/events"); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteAtomic("bob/status", []byte("dnd\n")); err != nil {
		t.Fatal(err)
	}
	sub, err := c.Sub("bob")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if err := sub.AppendLine(context.Background(), "events/s.jsonl", []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"bob/status", "bob/events/s.jsonl"} {
		fi, err := os.Stat(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(skewed) {
			t.Errorf("%s stamped %v, want the tree's clock %v", rel, fi.ModTime(), skewed)
		}
	}
}
