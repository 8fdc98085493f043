package fsutil

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"crypto/sha256"
	"github.com/gofrs/flock"
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
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, key+".lock")
	fl := flock.New(path)
	ctx, cancel := context.WithTimeout(ctx, LockTimeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil || !ok {
		return nil, fmt.Errorf("lock %s: timed out waiting for another st process", path)
	}
	// Closing the lock file releases the lock whatever Unlock reports.
	return func() { _ = fl.Unlock() }, nil
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
	ctx, cancel := context.WithTimeout(ctx, LockTimeout)
	defer cancel()
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			// Closing the file releases the lock, on every host.
			return func() { closeQuietly(f) }, nil
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
