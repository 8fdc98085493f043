package fsutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsynctest"
)

func TestWriteHint(t *testing.T) {
	tr, base := open(t)
	tr.MkdirAll("a")
	at := time.Date(2026, 7, 21, 10, 0, 0, 123456789, time.UTC)
	tr = tr.Clock(func() time.Time { return at })
	for _, data := range []string{"one\n", "two\n", ""} {
		if err := tr.WriteHint("a/f", []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(base, "a", "f"))
		if string(got) != data {
			t.Errorf("f = %q, want %q", got, data)
		}
	}
	if fi, _ := os.Stat(filepath.Join(base, "a", "f")); !fi.ModTime().Equal(at) {
		t.Errorf("f stamped %v, want the tree's clock %v", fi.ModTime(), at)
	}
	if got := names(t, filepath.Join(base, "a")); len(got) != 1 || got[0] != "f" {
		t.Errorf("folder holds %v after writes", got)
	}
	tr.MkdirAll("a/d/x")
	if err := tr.WriteHint("a/d", []byte("x")); err == nil {
		t.Error("WriteHint over a folder succeeded")
	}
	if got := names(t, filepath.Join(base, "a")); strings.Join(got, ",") != "d,f" {
		t.Errorf("after error the folder holds %v", got)
	}
	if err := tr.WriteHint("missing/f", []byte("x")); err == nil || !strings.Contains(err.Error(), filepath.Join(base, "missing", "f")) {
		t.Errorf("WriteHint into a missing folder: %v, want an error naming the target", err)
	}
}

// A crash between WriteHint's create and rename leaves its temp file: the
// target keeps the last bytes it had, and a later write of either kind
// removes the leftover once it is stale (and leaves other targets' alone).
func TestWriteHintLeftoverTemp(t *testing.T) {
	tr, base := open(t)
	tr.WriteHint("state", []byte("old"))
	old := time.Now().Add(-StaleTempAge - time.Hour)
	for _, n := range []string{".state123", ".other456"} {
		os.WriteFile(filepath.Join(base, n), []byte("new, never renamed"), 0o666)
		os.Chtimes(filepath.Join(base, n), old, old)
	}
	if got, _, _ := tr.ReadRegular("state"); string(got) != "old" {
		t.Errorf("state reads %q with a temp left behind, want the last written", got)
	}
	if err := tr.WriteHint("state", []byte("next")); err != nil {
		t.Fatal(err)
	}
	if got := names(t, base); strings.Join(got, ",") != ".other456,state" {
		t.Errorf("after the next write the folder holds %v", got)
	}
}

// WriteHint never asks the disk to sync, where WriteAtomic does (which
// shows the count would see a WriteHint that did).
func TestWriteHintDoesNotFsync(t *testing.T) {
	for _, kind := range []string{"hint", "atomic"} {
		dir := t.TempDir()
		synced := fsynctest.Synced(t, fsynctest.Helper("TestWriteHintHelper", "ST_WRITE_HELPER_DIR="+dir, "ST_WRITE_HELPER_KIND="+kind))
		if got, _ := os.ReadFile(filepath.Join(dir, "f")); string(got) != "3" {
			t.Fatalf("%s: the helper left f = %q, want its last write", kind, got)
		}
		switch {
		case kind == "hint" && len(synced) != 0:
			t.Errorf("3 WriteHints synced:\n%s", strings.Join(synced, "\n"))
		case kind == "atomic" && len(synced) < 3*2:
			t.Errorf("3 WriteAtomics made %d syncs, want 2 each:\n%s", len(synced), strings.Join(synced, "\n"))
		}
	}
}

// TestWriteHintHelper writes f three times in the folder its environment
// names, in a process of its own for TestWriteHintDoesNotFsync.
func TestWriteHintHelper(t *testing.T) {
	dir := os.Getenv("ST_WRITE_HELPER_DIR")
	if dir == "" {
		t.Skip("run by TestWriteHintDoesNotFsync")
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	write := tr.WriteHint
	if os.Getenv("ST_WRITE_HELPER_KIND") == "atomic" {
		write = tr.WriteAtomic
	}
	for _, data := range []string{"1", "2", "3"} {
		if err := write("f", []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
}
