package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/renameio/v2"
	"golang.org/x/sys/unix"
)

// StaleTempAge is how old a temp file left by a crashed writer must be
// before the next writer in its folder removes it. No write holds its
// temp file for anywhere near that long.
const StaleTempAge = time.Hour

// OrphanTempAge is how old a delivery's temp file must be before the next
// writer removes it once the process named in it is gone. The margin
// covers a writer in another PID namespace sharing the folder, for which
// the PID means nothing here.
const OrphanTempAge = time.Minute

// sharedSweepEvery is how many deliveries into a folder on a shared
// filesystem it takes, on average, for one to look for stale temp files
// there. The look lists the whole folder, and on a network filesystem
// every entry listed is a round trip's share at the server: in an inbox
// of 2,000 messages on GlusterFS it made each send cost the server 100 ms
// of CPU instead of 6. A crash's temp file is rare and no reader takes
// it for data, so it can wait for a later delivery.
const sharedSweepEvery = 32

// deliverTempPrefix and deliverTempSuffix frame the temp names of
// deliveries, so they can never be taken for another tool's files.
const (
	deliverTempPrefix = ".st-"
	deliverTempSuffix = ".tmp"
)

// WriteAtomic replaces rel with data: a temp dot-file in the same folder
// is written, fsynced and renamed over rel, then the folder is fsynced.
// The folder must exist. On error nothing is left behind.
//
// The new file's modification time is the tree's clock (Tree.Clock), to
// the nanosecond: st sync never orders copies of a file by it (who owns
// the file decides), but its quick check tells two rewrites within one
// tick of the filesystem's coarse clock apart by it.
func (t *Tree) WriteAtomic(rel string, data []byte) error {
	return t.pathError("write", rel, t.writeAtomic(rel, data))
}

func (t *Tree) writeAtomic(rel string, data []byte) error {
	sub, name, err := t.openToReplace(rel)
	if err != nil {
		return err
	}
	defer closeQuietly(sub)
	pf, err := renameio.NewPendingFile(name, renameio.WithRoot(sub),
		renameio.WithPermissions(filePerm), renameio.WithExistingPermissions())
	if err != nil {
		return err
	}
	// After the rename Cleanup has nothing to do; before it, the error
	// returned below says what failed.
	defer func() { _ = pf.Cleanup() }()
	if _, err := pf.Write(data); err != nil {
		return err
	}
	if err := setModTime(pf.File, t.now()); err != nil {
		return err
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return err
	}
	return syncRoot(sub)
}

// openToReplace opens rel's folder for replacing rel, first removing
// the stale temp files that writers of rel left there.
func (t *Tree) openToReplace(rel string) (sub *os.Root, name string, err error) {
	dir, name := split(rel)
	sub, err = openRoot(t.root, dir)
	if err != nil {
		return nil, "", err
	}
	removeStale(sub, "."+name, func(n string) bool { return isReplaceTemp(n, name) }, nil)
	return sub, name, nil
}

// isReplaceTemp matches renameio's temp names for target: "." + target
// followed by decimal digits.
func isReplaceTemp(name, target string) bool {
	rest, ok := strings.CutPrefix(name, "."+target)
	if !ok || rest == "" {
		return false
	}
	return strings.Trim(rest, "0123456789") == ""
}

// ErrCollisions is returned by Deliver when every fresh name was taken.
var ErrCollisions = errors.New("filename collisions exhausted (5 attempts) — clock drift?")

// deliverAttempts bounds the fresh names Deliver tries.
const deliverAttempts = 5

// Deliver writes data into folder dir under a fresh name from newName,
// never replacing an existing file. The bytes are on disk before the name
// appears, so a reader sees the whole file or nothing, and a crash leaves
// at most a temp dot-file. The folder must exist. It returns the name.
func (t *Tree) Deliver(dir string, data []byte, newName func() string) (string, error) {
	name, err := t.deliver(dir, data, newName)
	if errors.Is(err, ErrCollisions) {
		return "", err
	}
	return name, t.pathError("deliver to", dir, err)
}

func (t *Tree) deliver(dir string, data []byte, newName func() string) (string, error) {
	sub, err := openRoot(t.root, dir)
	if err != nil {
		return "", err
	}
	defer closeQuietly(sub)
	if !t.shared() || rand.IntN(sharedSweepEvery) == 0 {
		removeStale(sub, deliverTempPrefix, isDeliverTemp, deliverTempPID)
	}
	for range deliverAttempts {
		name := newName()
		tmp := fmt.Sprintf("%s%s.%d%s", deliverTempPrefix, name, os.Getpid(), deliverTempSuffix)
		if err := writeNew(sub, tmp, data); err != nil {
			// The temp name is taken only by a writer of the same name
			// with the same PID: another host's, on a shared filesystem.
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			return "", err
		}
		err := sub.Link(tmp, name)
		_ = sub.Remove(tmp) // linked or not, the temp name goes; a leftover is swept as stale
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return name, syncRoot(sub)
	}
	return "", ErrCollisions
}

func isDeliverTemp(name string) bool {
	return strings.HasPrefix(name, deliverTempPrefix) && strings.HasSuffix(name, deliverTempSuffix)
}

// deliverTempPID returns the writer's PID in a delivery temp name
// (".st-<name>.<pid>.tmp"), or 0 when there is none.
func deliverTempPID(name string) int {
	rest := strings.TrimSuffix(name, deliverTempSuffix)
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return 0
	}
	pid, err := strconv.Atoi(rest[i+1:])
	if err != nil || pid <= 0 || strconv.Itoa(pid) != rest[i+1:] {
		return 0
	}
	return pid
}

// processGone reports whether no process has pid (signal 0 says so
// without sending anything; EPERM means it exists under another user).
func processGone(pid int) bool {
	return errors.Is(unix.Kill(pid, 0), unix.ESRCH)
}

// writeNew creates name exclusively and writes, syncs and closes it,
// removing it again on any error.
func writeNew(r *os.Root, name string, data []byte) (err error) {
	f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = r.Remove(name) // best effort: the write error is the one to report
		}
	}()
	if _, err := f.Write(data); err != nil {
		closeQuietly(f)
		return err
	}
	if err := f.Sync(); err != nil {
		closeQuietly(f)
		return err
	}
	return f.Close()
}

// MoveNoReplace moves from to to inside the tree without replacing an
// existing to: it links, then removes from. fs.ErrExist means to exists;
// fs.ErrNotExist means from is gone (or to's folder is missing). Once the
// link is made the move stands: a from that another process removed
// meanwhile (a concurrent mover, a sweep) is not an error.
func (t *Tree) MoveNoReplace(from, to string) error {
	if err := t.root.Link(from, to); err != nil {
		return err
	}
	if err := t.root.Remove(from); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir, _ := split(to)
	return t.syncDir(dir)
}

// removeStale deletes the temp files in r, named with prefix and
// matching isTemp, that are older than StaleTempAge, or, when pidOf names
// their writer, older than OrphanTempAge with that writer gone. It is
// best effort: a failure only leaves the file. Only the names with the
// prefix are kept from the listing: a write sweeps the folder it writes
// in, an inbox of thousands of messages or an events folder of
// thousands of sessions.
func removeStale(r *os.Root, prefix string, isTemp func(string) bool, pidOf func(string) int) {
	d, err := openDir(r, ".")
	if err != nil {
		return
	}
	names, _ := listPrefixed(d, prefix)
	closeQuietly(d)
	now := time.Now()
	stale, orphan := now.Add(-StaleTempAge), now.Add(-OrphanTempAge)
	for _, n := range names {
		if n[0] != '.' || !isTemp(n) {
			continue
		}
		fi, err := r.Lstat(n)
		if err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(orphan) {
			continue
		}
		if fi.ModTime().Before(stale) {
			_ = r.Remove(n) // best effort, as the doc says
		} else if pidOf != nil {
			if pid := pidOf(n); pid > 0 && processGone(pid) {
				_ = r.Remove(n)
			}
		}
	}
}

func syncRoot(r *os.Root) error {
	d, err := openDir(r, ".")
	if err != nil {
		return err
	}
	defer closeQuietly(d)
	return ignoreEINVAL(d.Sync())
}

// pathError reports a failed write against the path the caller named
// (root-joined), not a temp file's name: "write <root>/alice/status:
// read-only file system". The system error stays reachable for errors.Is.
func (t *Tree) pathError(op, rel string, err error) error {
	if err == nil {
		return nil
	}
	inner := err
	for {
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(inner, &pe):
			inner = pe.Err
		case errors.As(inner, &le):
			inner = le.Err
		default:
			return &fs.PathError{Op: op, Path: filepath.Join(t.base, filepath.FromSlash(rel)), Err: inner}
		}
	}
}

// WriteHint replaces rel with data as WriteAtomic does, readers seeing
// the old bytes or the new and never a mix, but without its two fsyncs:
// the rename may reach the disk before the bytes or not at all, so a
// crash of the machine (not of the process) can leave the old bytes, an
// empty file or none. Those fsyncs are most of a short hook's own time,
// so hint state uses this: what a lost last write only repeats (an inbox
// cursor announcing a message twice, a reminder given twice). Anything
// that must survive a crash (messages, status, now.md, decisions) goes
// through WriteAtomic or Deliver.
func (t *Tree) WriteHint(rel string, data []byte) error {
	return t.pathError("write", rel, t.writeHint(rel, data))
}

func (t *Tree) writeHint(rel string, data []byte) error {
	sub, name, err := t.openToReplace(rel)
	if err != nil {
		return err
	}
	defer closeQuietly(sub)
	tmp, f, err := createReplaceTemp(sub, name)
	if err != nil {
		return err
	}
	err = writeStamped(f, data, t.now())
	if err == nil {
		err = sub.Rename(tmp, name)
	}
	if err != nil {
		_ = sub.Remove(tmp) // best effort: the write error is the one to report
	}
	return err
}

// createReplaceTemp creates a fresh temp file for replacing target in r,
// named as renameio names WriteAtomic's ("." + target + digits), so a
// crash's leftover is swept by the next writer of either kind.
func createReplaceTemp(r *os.Root, target string) (string, *os.File, error) {
	for range deliverAttempts {
		name := "." + target + strconv.FormatUint(rand.Uint64(), 10)
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm)
		if !errors.Is(err, fs.ErrExist) {
			return name, f, err
		}
	}
	return "", nil, ErrCollisions
}

// writeStamped writes data to f, sets its modification time to at (see
// WriteAtomic) and closes it.
func writeStamped(f *os.File, data []byte, at time.Time) error {
	_, err := f.Write(data)
	if err == nil {
		err = setModTime(f, at)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
