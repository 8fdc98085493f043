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
	dir := t.TempDir()
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
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
