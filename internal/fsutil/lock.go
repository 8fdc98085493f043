package fsutil

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"crypto/sha256"
	"github.com/gofrs/flock"
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

// Lock takes the exclusive lock named key for this tree, waiting up to
// LockTimeout or until ctx ends. The returned function releases it.
func (t *Tree) Lock(ctx context.Context, key string) (unlock func(), err error) {
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
