package hooks

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestStoreProblemNote(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, nil, 0o644)
	good := filepath.Join(tmp, "good")
	opt := testOptions(t)
	opt.ProblemNotes = []string{filepath.Join(file, "st"), good} // the first cannot be created
	dirs := opt.ProblemNotes
	for _, tc := range []struct {
		name string
		err  error
		note bool
	}{
		{"read-only", &fs.PathError{Op: "open", Path: "/r/alice/events", Err: syscall.EROFS}, true},
		{"full", &fs.PathError{Op: "write", Path: "/r/alice/events", Err: syscall.ENOSPC}, true},
		{"not ours", &fs.PathError{Op: "open", Path: "/r", Err: syscall.EACCES}, true},
		{"root a file", &fs.PathError{Op: "openat", Path: "/r", Err: syscall.ENOTDIR}, true},
		{"lock timeout", context.DeadlineExceeded, false},
		{"no agent folder", fs.ErrNotExist, false},
	} {
		noteWriteFailure(opt, "/r/alice", tc.err)
		got := StoreProblem(dirs, opt.Root)
		if tc.note != (got != "") {
			t.Errorf("%s: note %q, want one: %v", tc.name, got, tc.note)
		}
		if tc.note && (!strings.Contains(got, "alice could not write to /r/alice (") || !strings.Contains(got, "st hooks doctor")) {
			t.Errorf("%s: note %q", tc.name, got)
		}
		if again := StoreProblem(dirs, opt.Root); again != "" {
			t.Errorf("%s: the note was shown twice", tc.name)
		}
	}
}

func TestPeekStoreProblemKeepsTheNote(t *testing.T) {
	opt := testOptions(t)
	opt.ProblemNotes = []string{filepath.Join(t.TempDir(), "st")}
	if got := PeekStoreProblem(opt.ProblemNotes, opt.Root); got != "" {
		t.Fatalf("no note written, peek says %q", got)
	}
	noteWriteFailure(opt, "/r/alice", &fs.PathError{Op: "open", Path: "/r/alice/events", Err: syscall.EROFS})
	for range 2 {
		if got := PeekStoreProblem(opt.ProblemNotes, opt.Root); !strings.Contains(got, "alice could not write to /r/alice (") {
			t.Fatalf("peek: %q", got)
		}
	}
	if got := StoreProblem(opt.ProblemNotes, opt.Root); got == "" {
		t.Fatal("peeking removed the note")
	}
	if got := PeekStoreProblem(opt.ProblemNotes, opt.Root); got != "" {
		t.Fatalf("after StoreProblem, peek says %q", got)
	}
}

// TestStoreProblemPerStore: a note about one store is neither printed nor
// cleared by a command on another store, whose own note is separate.
func TestStoreProblemPerStore(t *testing.T) {
	opt := testOptions(t)
	opt.ProblemNotes = []string{filepath.Join(t.TempDir(), "st")}
	other := filepath.Join(t.TempDir(), "other")
	noteWriteFailure(opt, "/r/alice", &fs.PathError{Op: "open", Path: "/r/alice/events", Err: syscall.EROFS})
	if got := PeekStoreProblem(opt.ProblemNotes, other); got != "" {
		t.Errorf("another store's peek shows %q", got)
	}
	if got := StoreProblem(opt.ProblemNotes, other); got != "" {
		t.Errorf("a command on another store printed %q", got)
	}
	// The same store, spelled through a symlink, is the same store.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.MkdirAll(opt.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(opt.Root, link); err != nil {
		t.Fatal(err)
	}
	if got := StoreProblem(opt.ProblemNotes, link); !strings.Contains(got, "alice could not write to /r/alice (") {
		t.Errorf("the store's own command (through a symlink) printed %q", got)
	}
	if got := StoreProblem(opt.ProblemNotes, opt.Root); got != "" {
		t.Errorf("the note was shown twice: %q", got)
	}
}

// The notes' folder goes with the last note a command prints, so that a
// person's next command, finding no folder, looks no further (it does
// not resolve the root's links to name a note); a note about another
// store keeps it.
func TestStoreProblemFolderGoesWithItsLastNote(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "st")
	failure := &fs.PathError{Op: "open", Path: "/r/alice/events", Err: syscall.EROFS}
	a, b := testOptions(t), testOptions(t)
	a.ProblemNotes, b.ProblemNotes = []string{dir}, []string{dir}
	noteWriteFailure(a, "/r/alice", failure)
	noteWriteFailure(b, "/r/alice", failure)
	if got := PeekStoreProblem(a.ProblemNotes, a.Root); got == "" {
		t.Fatal("no note to peek at")
	}
	if got := StoreProblem(a.ProblemNotes, a.Root); got == "" {
		t.Fatal("no note printed")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the folder went while another store's note was in it: %v", err)
	}
	if got := StoreProblem(b.ProblemNotes, b.Root); got == "" {
		t.Fatal("the other store's note was not printed")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the folder stayed after its last note: %v", err)
	}
	if got := StoreProblem(a.ProblemNotes, a.Root); got != "" {
		t.Errorf("with no folder, a command printed %q", got)
	}
	noteWriteFailure(a, "/r/alice", failure)
	if got := StoreProblem(a.ProblemNotes, a.Root); got == "" {
		t.Error("a note written after the folder went was not printed")
	}
	// An empty folder, as an earlier st left its notes', goes at the
	// next command too.
	os.MkdirAll(dir, 0o755)
	if got := StoreProblem(a.ProblemNotes, a.Root); got != "" {
		t.Errorf("an empty folder gave the note %q", got)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the empty folder stayed: %v", err)
	}
}
