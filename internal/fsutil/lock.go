package fsutil

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/internal/sha256"
	"golang.org/x/sys/unix"
)

// LockTimeout is how long Lock waits for a lock held by another process.
const LockTimeout = 10 * time.Second

// lockDir is where lock files live: outside the store, so that the store
// holds no machine-local files and syncing it can never ship or clobber a
// lock. Lock files are never deleted (deleting a held lock file lets two
// processes hold "the" lock).
func lockDir(base string) string {
	abs, err := filepath.Abs(base)
	if err != nil {
		abs = base
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(os.TempDir(), fmt.Sprintf("st-locks-%d", os.Getuid()), hex.EncodeToString(sum[:8]))
}

// SharedLockDir is the folder of lock files inside a store on a shared
// filesystem (FS.Shared): there the writers that must be excluded run on
// other hosts, which a lock file in this host's temp folder cannot stop,
// so the lock lives beside the data, where every host's flock meets.
const SharedLockDir = ".st-locks"

// Lock takes the exclusive lock named key for this tree, waiting up to
// LockTimeout or until ctx ends. The returned function releases it.
// The lock file is outside the tree, unless the tree is on a shared
// filesystem (SharedLockDir).
func (t *Tree) Lock(ctx context.Context, key string) (unlock func(), err error) {
	if t.shared() {
		return t.sharedLock(ctx, key)
	}
	dir := lockDir(t.base)
	if err := ownLockDir(filepath.Dir(dir)); err != nil {
		return nil, err
	}
	if err := ownLockDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, key+".lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return flockFile(ctx, f, path)
}

// ownLockDir makes dir, mode 0700, or accepts the one already there only
// when it is a real folder (not a link) that this user owns and no one
// else may enter. The temp folder is shared by every account of the
// machine: a folder another account made there first would let it plant
// links where st creates lock files, or hold the locks itself (the check
// ssh-agent and tmux make of their sockets' folder).
func ownLockDir(dir string) error {
	err := os.Mkdir(dir, 0o700)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("lock folder: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("lock folder: %w", err)
	}
	uid := os.Getuid()
	switch owner, ok := fileOwner(fi); {
	case !fi.IsDir():
		return fmt.Errorf("lock folder %s is not a folder (%s): another account may have planted it; remove it or set TMPDIR to a folder of your own", dir, fi.Mode().Type())
	case ok && owner != uid:
		return fmt.Errorf("lock folder %s belongs to uid %d, not to you (uid %d): another account made it first; remove it or set TMPDIR to a folder of your own", dir, owner, uid)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("lock folder %s has mode %04o, where st needs 0700 (only you may enter it): run chmod 700 on it", dir, fi.Mode().Perm())
	}
	return nil
}

// fileOwner is the uid that owns the file fi describes.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// sharedLock is Lock with the lock file in the tree (SharedLockDir),
// opened through the tree's root so no planted link leads it elsewhere,
// and read-write: NFS maps flock to a byte-range lock, which an
// exclusive lock takes only on a file open for writing.
func (t *Tree) sharedLock(ctx context.Context, key string) (func(), error) {
	rel := SharedLockDir + "/" + key + ".lock"
	path := filepath.Join(t.base, SharedLockDir, key+".lock")
	// Hosts make the folder and the file at the same moment: a create
	// racing another mount's can fail there (retryRaced).
	var f *os.File
	err := retryRaced(func() error {
		err := t.root.MkdirAll(SharedLockDir, dirPerm)
		if err == nil {
			f, err = t.root.OpenFile(rel, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, filePerm)
		}
		return err
	})
	if err != nil {
		return nil, t.pathError("lock", rel, err)
	}
	return flockFile(ctx, f, path)
}

// flockFile takes f's exclusive flock, waiting up to LockTimeout or until
// ctx ends. The returned function unlocks and closes f: an explicit unlock
// is answered before it returns, where the release a close implies is
// sent without waiting on FUSE mounts such as GlusterFS, so a waiter
// through another mount could still be refused for a moment after it.
func flockFile(ctx context.Context, f *os.File, path string) (func(), error) {
	ctx, cancel := context.WithTimeout(ctx, LockTimeout)
	defer cancel()
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() {
				_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
				closeQuietly(f)
			}, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			closeQuietly(f)
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			closeQuietly(f)
			return nil, fmt.Errorf("lock %s: timed out waiting for another st process", path)
		case <-time.After(5 * time.Millisecond):
		}
	}
}
