package hooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// A hook that cannot write to the store still fails open: it exits 0
// and the session goes on, so nobody sees that st recorded nothing. It
// leaves a note instead, in the first of Options.ProblemNotes it can
// write (the state folder, then a temp folder: the store itself is what
// failed), and the next st command a person runs prints it once
// (StoreProblem) and removes it. Writing the note costs nothing on the
// normal path; reading it costs the person's command one stat.
//
// The note is about one store: its name carries a hash of the root, as
// the other per-store state kept outside the root does (codex_cursor.go),
// so that a command on another store neither prints nor clears it.

// ProblemNoteName is the file name, in each of its folders, of the note
// about the store at root.
func ProblemNoteName(root string) string {
	key, _ := rootKey(root)
	return "st-hook-write-failed-" + key
}

// noteWriteFailure leaves the note when err says the store (or the state
// folder) cannot be written; other errors (a lock that timed out, a
// missing agent) are not the person's problem.
func noteWriteFailure(opt Options, where string, err error) {
	if !cannotWrite(err) || len(opt.ProblemNotes) == 0 {
		return
	}
	msg := fmt.Sprintf("%s %s could not write to %s (%v)\n",
		opt.now().UTC().Format(time.RFC3339), opt.Agent, where, bareError(err))
	name := ProblemNoteName(opt.Root)
	for _, dir := range opt.ProblemNotes {
		t, err := fsutil.OpenOrCreate(dir)
		if err != nil {
			continue
		}
		err = t.WriteAtomic(name, []byte(msg))
		t.Close()
		if err == nil {
			return
		}
	}
}

// cannotWrite reports whether err is the filesystem refusing a write.
func cannotWrite(err error) bool {
	for _, e := range []error{syscall.EROFS, syscall.EACCES, syscall.EPERM, syscall.ENOSPC, syscall.EDQUOT, syscall.ENOTDIR} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

func bareError(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}

// StoreProblem returns the note a hook left in one of dirs about the
// store at root, removing it, as the warning a person's command prints;
// "" when there is none.
func StoreProblem(dirs []string, root string) string {
	note := readProblem(dirs, root, true)
	if note == "" {
		return ""
	}
	return "warning: the store is not writable: at " + note +
		", so st's hooks recorded nothing; run `st hooks doctor` for what to do"
}

// PeekStoreProblem returns the note a hook left in one of dirs about the
// store at root without removing it (the dashboard shows it on every page
// while it is there); "" when there is none.
func PeekStoreProblem(dirs []string, root string) string {
	return readProblem(dirs, root, false)
}

// readProblem returns the first note about the store at root found in
// dirs, trimmed, removing it when remove is set, and then its folder if
// nothing else is left in it. The folders hold nothing but notes, so they
// exist only while a note does: where none exists, the common case, the
// check costs one failed stat per folder, and the note's name (a walk of
// root resolving its links, and a hash), most of what the check cost
// every command of a person, is never made.
func readProblem(dirs []string, root string, remove bool) string {
	name := ""
	for _, dir := range dirs {
		if _, err := os.Lstat(dir); err != nil {
			continue
		}
		if name == "" {
			name = ProblemNoteName(root)
		}
		note := readNote(dir, name, remove)
		if remove {
			_ = os.Remove(dir) // only when empty: a note about another store keeps it
		}
		if note != "" {
			return note
		}
	}
	return ""
}

// readNote returns the note name in dir, trimmed, removing it when
// remove is set; "" when there is none.
func readNote(dir, name string, remove bool) string {
	if _, err := os.Lstat(filepath.Join(dir, name)); err != nil {
		return ""
	}
	t, err := fsutil.Open(dir)
	if err != nil {
		return ""
	}
	defer t.Close()
	data, _, err := t.ReadRegular(name)
	if err != nil {
		return ""
	}
	if remove {
		_ = t.Remove(name) // best effort: the note is printed once either way
	}
	return strings.TrimSpace(string(data))
}

// ProblemNoteDirs are the folders of the note: the state folder's st/,
// then one in tmp named for the user (uid), as tmp is shared.
func ProblemNoteDirs(stateDir, tmp, uid string) []string {
	return []string{filepath.Join(stateDir, "st"), filepath.Join(tmp, "st-"+uid)}
}
