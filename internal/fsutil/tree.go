// Package fsutil is the only place where st touches the filesystem for
// writing. It offers four primitives, all confined to the store root
// through os.Root so that no name, ".." or symlink can lead a write
// outside it:
//
//   - WriteAtomic replaces a whole file (temp dot-file, fsync, rename,
//     folder fsync): readers see the old bytes or the new, never a mix.
//   - WriteHint replaces a file as WriteAtomic does but without the
//     fsyncs, for hint state whose last write a crash may lose.
//   - Deliver creates a new file under a fresh name without ever
//     replacing one (temp dot-file, fsync, link, folder fsync), the
//     Maildir protocol.
//   - Lock takes an advisory lock kept outside the tree, so the whole
//     root stays safe to sync; on a shared filesystem (FSOf), where the
//     writers to keep out are on other hosts, the lock file is in the
//     tree (SharedLockDir) instead.
//
// Every temp file starts with "." and ends in ".tmp", so no reader ever
// takes one for a message, and the next writer in a folder removes those
// left behind by a crash once they are older than StaleTempAge (sooner
// when the writer named in the temp name is gone, OrphanTempAge).
package fsutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Permissions match what Node's fs functions create under the umask.
const (
	filePerm = 0o666
	dirPerm  = 0o777
)

// Tree is an open store root. Paths given to its methods are relative,
// slash-separated, and may not leave the root.
type Tree struct {
	base string
	root *os.Root
	// clock stamps the modification time of each rewrite and append
	// (Clock); nil means time.Now.
	clock func() time.Time
	// fs is the filesystem the tree is on, looked up once when first
	// needed (nil: treated as a local one).
	fs *fsOnce
	// folders keeps top-level folders open for a reading pass (Folders);
	// nil resolves every path from root.
	folders *folderCache
}

// fsOnce holds the result of one FSOf, shared by a tree's views.
type fsOnce struct {
	once sync.Once
	path string
	fs   FS
}

// shared reports whether the tree is on a shared filesystem (FS.Shared).
func (t *Tree) shared() bool {
	if t.fs == nil {
		return false
	}
	t.fs.once.Do(func() { t.fs.fs, _ = FSOf(t.fs.path) }) // unknown: a local disk, as before
	return t.fs.fs.Shared
}

// Clock is a view of t whose rewrites and appends (WriteAtomic,
// AppendLine, Append) are stamped with now's time instead of the
// system clock's: the seam through which a test runs a host whose clock
// is off. The view shares t's handle: close t, not the view.
func (t *Tree) Clock(now func() time.Time) *Tree {
	v := *t
	v.clock = now
	return &v
}

// now is the time a write is stamped with.
func (t *Tree) now() time.Time {
	if t.clock != nil {
		return t.clock()
	}
	return time.Now()
}

// Open opens the tree at base, which must exist.
func Open(base string) (*Tree, error) {
	// The trailing slash makes the kernel refuse a non-folder at once
	// (a FIFO would otherwise block the open).
	r, err := os.OpenRoot(strings.TrimSuffix(base, "/") + "/")
	if err != nil {
		return nil, withPath(err, base)
	}
	return &Tree{base: base, root: r, fs: &fsOnce{path: base}}, nil
}

// OpenOrCreate opens the tree at base, creating base first if needed.
func OpenOrCreate(base string) (*Tree, error) {
	if err := os.MkdirAll(base, dirPerm); err != nil {
		if !sharedPath(filepath.Dir(base)) {
			return nil, err
		}
		if err := retryRaced(func() error { return os.MkdirAll(base, dirPerm) }); err != nil {
			return nil, err
		}
	}
	t, err := Open(base)
	if err != nil && sharedPath(filepath.Dir(base)) {
		err = retryRaced(func() error { t, err = Open(base); return err })
	}
	return t, err
}

// sharedPath reports whether path is on a shared filesystem.
func sharedPath(path string) bool {
	fs, err := FSOf(path)
	return err == nil && fs.Shared
}

// retryRaced runs op again while it fails the way a folder made at the
// same moment through another host's mount makes it fail there: EEXIST
// from a mkdir whose name this host's caches do not show yet, ENOENT
// from an open of it, ESTALE. It waits as retryReplaced does, for up
// to racedPatience; only stores on a shared filesystem take it, so a
// file planted where a folder belongs still fails at once elsewhere.
func retryRaced(op func() error) error {
	return retryWhile(op, func(err error) bool {
		return errors.Is(err, syscall.EEXIST) || errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ESTALE)
	}, racedPatience)
}

// Sub opens folder rel as a tree of its own, confined to it. Reading many
// files of one folder through it (ReadRegular of bare names) skips walking
// the path from the root for every file. Close it when done.
func (t *Tree) Sub(rel string) (*Tree, error) {
	from, in := t.at(rel)
	r, err := openRoot(from, in)
	if err != nil {
		return nil, withPath(err, rel)
	}
	return &Tree{base: filepath.Join(t.base, filepath.FromSlash(rel)), root: r, fs: t.fs, clock: t.clock}, nil
}

// Close releases the tree. Closing a nil tree (a root that did not
// exist) does nothing, so readers can always defer it.
func (t *Tree) Close() error {
	if t == nil {
		return nil
	}
	return t.root.Close()
}

// Base returns the path the tree was opened at, verbatim.
func (t *Tree) Base() string { return t.base }

// MkdirAll creates rel and its parents inside the tree.
func (t *Tree) MkdirAll(rel string) error {
	err := t.root.MkdirAll(rel, dirPerm)
	if err != nil && t.shared() {
		err = retryRaced(func() error { return t.root.MkdirAll(rel, dirPerm) })
	}
	return t.pathError("mkdir", rel, err)
}

// IsDir reports whether rel is a directory (symlinks followed within the tree).
func (t *Tree) IsDir(rel string) bool {
	fi, err := t.Stat(rel)
	return err == nil && fi.IsDir()
}

// Stat returns information about rel, following symlinks within the tree.
func (t *Tree) Stat(rel string) (fs.FileInfo, error) {
	from, in := t.at(rel)
	fi, err := from.Stat(in)
	return fi, withPath(err, rel)
}

// Lstat returns information about rel without following a final symlink.
func (t *Tree) Lstat(rel string) (fs.FileInfo, error) {
	from, in := t.at(rel)
	fi, err := from.Lstat(in)
	return fi, withPath(err, rel)
}

// Chmod sets the permission bits of rel (an installed git hook must be
// executable).
func (t *Tree) Chmod(rel string, mode fs.FileMode) error { return t.root.Chmod(rel, mode) }

// Remove deletes the file rel.
func (t *Tree) Remove(rel string) error { return t.root.Remove(rel) }

// RemoveAll deletes rel and everything under it.
func (t *Tree) RemoveAll(rel string) error { return t.root.RemoveAll(rel) }

// Replace renames from over to, replacing to (a copy put aside by a
// sync going back in place of the one that replaced it).
func (t *Tree) Replace(from, to string) error {
	return t.pathError("replace", to, t.root.Rename(from, to))
}

// Touch sets rel's access and modification times to at, in place and
// without an fsync: a crash of the machine may keep the old times, never
// lose the file (a home mark's refresh, a rewrite that keeps its file's
// time).
func (t *Tree) Touch(rel string, at time.Time) error {
	return t.pathError("touch", rel, t.root.Chtimes(rel, at, at))
}

// ReadDirNames lists the names in folder rel, unsorted. A missing folder
// gives fs.ErrNotExist.
func (t *Tree) ReadDirNames(rel string) ([]string, error) {
	f, err := t.openDir(rel)
	if err != nil {
		return nil, err
	}
	defer closeQuietly(f)
	return f.Readdirnames(-1)
}

// ReadDir lists the entries of folder rel, unsorted. Types come from the
// folder listing itself; Info stats the entry inside the tree.
func (t *Tree) ReadDir(rel string) ([]fs.DirEntry, error) {
	f, err := t.openDir(rel)
	if err != nil {
		return nil, err
	}
	defer closeQuietly(f)
	// A folder opened in an os.Root lstats every entry while listing (Go
	// 1.26), which dominates listing a big inbox. A duplicate descriptor
	// opened outside the Root lists with the types the kernel returns;
	// the entries' Info goes back through the Root.
	raw := dupFile(f)
	if raw == nil {
		return f.ReadDir(-1)
	}
	defer closeQuietly(raw)
	entries, err := raw.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	for i, e := range entries {
		entries[i] = rootEntry{e, t, path.Join(rel, e.Name())}
	}
	return entries, nil
}

// rootEntry is a listed entry whose Info is an Lstat inside the tree
// (the plain entry would stat its path relative to the working folder).
type rootEntry struct {
	fs.DirEntry
	t   *Tree
	rel string
}

func (e rootEntry) Info() (fs.FileInfo, error) { return e.t.Lstat(e.rel) }

// dupFile returns a close-on-exec duplicate of f as a plain *os.File, or
// nil when that fails.
func dupFile(f *os.File) *os.File {
	sc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	nfd := -1
	_ = sc.Control(func(fd uintptr) { // a failed Control leaves nfd at -1, handled below
		nfd, err = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
	})
	if err != nil || nfd < 0 {
		return nil
	}
	return os.NewFile(uintptr(nfd), f.Name())
}

// ErrNotRegular is returned when a file to read is a symlink, a FIFO, a
// folder or anything else that is not a plain file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned when a file is bigger than a reader's limit.
var ErrTooLarge = errors.New("file too large")

// ReadRegular reads rel only if it is a regular file. It never follows a
// final symlink and never blocks on a FIFO planted under a message name.
// A file replaced while it is read is read again (replacedPatience).
func (t *Tree) ReadRegular(rel string) (data []byte, fi fs.FileInfo, err error) {
	err = retryReplaced(t.relook(rel), func() error {
		data, fi, err = t.readRegular(rel)
		return err
	})
	if errors.Is(err, errSwapped) {
		err = &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
	}
	return data, fi, err
}

// replacedPatience bounds how long a reader keeps looking at a file
// that was replaced (WriteAtomic's rename) while it read it. On a local
// disk the reader keeps the old file open and reads it whole, or the
// next look finds the new one. On NFS and FUSE filesystems such as
// GlusterFS, a rename made on another host can leave this host's lookup
// on the removed file until its caches expire (a second by default on
// GlusterFS, its md-cache and the kernel's entry cache): the open, fstat
// or read fails with ESTALE, or the read with ENOENT, until then. A file
// rewritten again meanwhile can start the wait over: with one mount
// rewriting a status 100 times a second, a reader through another (a tree
// opened for each read, as each st process opens one) took over 2 s, and
// a patience of 1.5 s failed 6 reads in 45,000 (`st status` answered
// "offline"); 3.5 s failed none of 57,000 here but one of 6,567 in a
// loaded CI run, before retryReplaced looked the name up again itself
// (TestStatusReadsAcrossMountsNeverFail). The waits between looks double
// from a millisecond up to maxReplacedWait.
const (
	replacedPatience = 3500 * time.Millisecond
	maxReplacedWait  = 128 * time.Millisecond
)

// racedPatience bounds retryRaced: a folder made through another mount
// shows here once this host's caches expire, a second by default on
// GlusterFS, and no second write starts that wait over.
const racedPatience = 1500 * time.Millisecond

// errSwapped is readRegular's report that the name led to another
// regular file between the check and the open: a rename, read again.
var errSwapped = errors.New("replaced while opened")

// errVanished marks a file that went away after it was opened: removed,
// or replaced by a rename on another host.
var errVanished = errors.New("gone while read")

// vanished marks err when it says the open file is gone.
func vanished(err error) error {
	if errors.Is(err, syscall.ENOENT) {
		return fmt.Errorf("%w: %w", errVanished, err)
	}
	return err
}

// replacedMeanwhile reports whether err says the file was replaced while
// it was opened or read.
func replacedMeanwhile(err error) bool {
	return errors.Is(err, syscall.ESTALE) || errors.Is(err, errSwapped) || errors.Is(err, errVanished)
}

// retryReplaced runs read again, after a short wait, while it fails
// because the file was replaced meanwhile, for up to replacedPatience;
// the last error stands (a file really removed reads as missing on the
// next look).
//
// Each new try starts with relook, a look at the file's name by its path
// (an lstat). A stale handle met through an open file (fstat or read
// failing with ESTALE) tells the kernel nothing about the name, so FUSE
// hands each open the replaced file until its entry cache expires, a
// second on GlusterFS; a stat by path meets the stale handle itself, and
// the kernel looks the name up afresh (its ESTALE retry with
// LOOKUP_REVAL). The look comes after the wait, not before it: a name
// looked up before a wait is stale again by its end when another host
// rewrites the file a hundred times a second (looking before, 2 reads in
// 9,000 still failed after 3.5 s). A read that meets a stale handle took
// 1.05 s without the relook and milliseconds with it
// (TestReadAfterStaleHandleLooksAgain); docs/sharedfs.md has the figures
// under load.
func retryReplaced(relook func(), read func() error) error {
	tries := 0
	return retryWhile(func() error {
		if tries++; tries > 1 {
			relook()
		}
		return read()
	}, replacedMeanwhile, replacedPatience)
}

// relook is retryReplaced's look at rel by its path.
func (t *Tree) relook(rel string) func() {
	return func() { _, _ = t.Lstat(rel) } // only for the kernel's sake: the read that follows reports
}

// retryWhile runs op again while its error is one again says may pass,
// for up to patience, the waits between runs doubling from a millisecond
// up to maxReplacedWait; the last error stands.
func retryWhile(op func() error, again func(error) bool, patience time.Duration) error {
	err := op()
	wait, waited := time.Millisecond, time.Duration(0)
	for err != nil && again(err) && waited < patience {
		time.Sleep(wait)
		waited += wait
		wait = min(2*wait, maxReplacedWait)
		err = op()
	}
	return err
}

func (t *Tree) readRegular(rel string) ([]byte, fs.FileInfo, error) {
	// os.Root follows a final symlink that stays inside the root despite
	// O_NOFOLLOW, so the name is checked with Lstat in its folder first
	// and the opened file must be the one checked.
	dir, name := split(rel)
	sub := t.root
	if dir != "." {
		var err error
		if sub, err = openRoot(t.root, dir); err != nil {
			return nil, nil, err
		}
		defer closeQuietly(sub)
	}
	lfi, err := sub.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !lfi.Mode().IsRegular() {
		return nil, lfi, &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
	}
	f, err := sub.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	defer closeQuietly(f)
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, vanished(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, &fs.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
	}
	if !os.SameFile(fi, lfi) {
		return nil, fi, errSwapped
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, nil, vanished(err)
	}
	return buf.Bytes(), fi, nil
}

// syncDir makes the names in folder rel durable.
func (t *Tree) syncDir(rel string) error {
	d, err := openDir(t.root, rel)
	if err != nil {
		return err
	}
	defer closeQuietly(d)
	return ignoreEINVAL(d.Sync())
}

// ignoreEINVAL drops the error of a folder fsync on filesystems that do
// not support it.
func ignoreEINVAL(err error) error {
	if errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}

func split(rel string) (dir, name string) {
	dir, name = path.Split(rel)
	if dir == "" {
		dir = "."
	}
	return strings.TrimSuffix(dir, "/"), name
}

// openDir opens folder rel of r for listing or syncing. O_DIRECTORY
// refuses anything else at once: a plain open of a FIFO planted where a
// folder should be would block until a writer came.
func (t *Tree) openDir(rel string) (*os.File, error) {
	from, in := t.at(rel)
	f, err := openDir(from, in)
	return f, withPath(err, rel)
}

func openDir(r *os.Root, rel string) (*os.File, error) {
	return r.OpenFile(rel, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
}

// openRoot opens folder rel of r as a Root of its own. The trailing slash
// makes the final open require a folder: os.Root opens it without
// O_DIRECTORY, so a FIFO planted there would block it.
func openRoot(r *os.Root, rel string) (*os.Root, error) {
	sub, err := r.OpenRoot(strings.TrimSuffix(rel, "/") + "/")
	if err != nil {
		return nil, withPath(err, rel)
	}
	return sub, nil
}

// withPath gives a path error the path as the caller spelled it.
func withPath(err error, p string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: p, Err: pe.Err}
	}
	return err
}

// closeQuietly closes c when its error has nothing to add: a file or
// folder only read (a failed close loses no data), or one whose write
// has already failed (that failure is the error to report).
func closeQuietly(c io.Closer) { _ = c.Close() }
