package fsutil

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Every rewrite and every append leaves a modification time in a later
// second than the one before (all rsync --update compares), however fast they come and even when the
// file came from a clock that runs ahead: a sync keeping the newer copy
// must be able to tell each version from the one before.
func TestRewritesMoveModTimeForward(t *testing.T) {
	tr, dir := open(t)
	mtime := func(rel string) time.Time {
		fi, err := os.Stat(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	var prev time.Time
	for i := range 5 {
		if err := tr.WriteAtomic("status", []byte{byte('a' + i%26)}); err != nil {
			t.Fatal(err)
		}
		if got := mtime("status"); got.Unix() <= prev.Unix() {
			t.Fatalf("write %d: mtime %v, not after %v", i, got, prev)
		} else {
			prev = got
		}
	}
	prev = time.Time{}
	for i := range 5 {
		if err := tr.AppendLine(context.Background(), "log.jsonl", []byte("{}\n")); err != nil {
			t.Fatal(err)
		}
		if got := mtime("log.jsonl"); got.Unix() <= prev.Unix() {
			t.Fatalf("append %d: mtime %v, not after %v", i, got, prev)
		} else {
			prev = got
		}
	}
	ahead := time.Now().Add(time.Hour).Truncate(time.Second)
	for _, rel := range []string{"status", "log.jsonl"} {
		if err := os.Chtimes(filepath.Join(dir, rel), ahead, ahead); err != nil {
			t.Fatal(err)
		}
	}
	tr.WriteAtomic("status", []byte("x"))
	tr.AppendLine(context.Background(), "log.jsonl", []byte("{}\n"))
	for _, rel := range []string{"status", "log.jsonl"} {
		if got, want := mtime(rel), ahead.Add(ModTimeStep); !got.Equal(want) {
			t.Errorf("%s after a copy from a clock ahead: mtime %v, want %v", rel, got, want)
		}
	}
}

// Through Behind, a rewrite of an existing file is stamped a whole
// second before the copy it replaces, so the owner's copy wins any
// rsync --update; a new file is stamped now, and the tree it came from
// still moves forward.
func TestBehindRewritesLoseToTheCopyTheyReplace(t *testing.T) {
	tr, dir := open(t)
	owner := time.Now().Add(-time.Minute).Truncate(time.Second).Add(300 * time.Millisecond)
	if err := tr.WriteAtomic("status", []byte("busy\n")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "status")
	if err := os.Chtimes(path, owner, owner); err != nil {
		t.Fatal(err)
	}
	if err := tr.Behind().WriteAtomic("status", []byte("away\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := owner.Truncate(time.Second).Add(-ModTimeStep); !fi.ModTime().Equal(want) {
		t.Errorf("behind rewrite: mtime %v, want %v", fi.ModTime(), want)
	}
	if b, _ := os.ReadFile(path); string(b) != "away\n" {
		t.Errorf("behind rewrite wrote %q", b)
	}
	before := time.Now().Add(-time.Second)
	if err := tr.Behind().WriteAtomic("fresh", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "fresh")); fi.ModTime().Before(before) {
		t.Errorf("a new file through Behind: mtime %v, want now", fi.ModTime())
	}
	if err := tr.WriteAtomic("status", []byte("dnd\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.ModTime().Before(before) {
		t.Errorf("the tree's own next rewrite: mtime %v, want now", fi.ModTime())
	}
}
