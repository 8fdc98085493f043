package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A store's lock files keep the name every st version gives them (the
// first 8 bytes of SHA-256 of the store's absolute path): two versions
// working on one store at once must take the same locks.
func TestLockDirNameStays(t *testing.T) {
	want := filepath.Join(os.TempDir(), fmt.Sprintf("st-locks-%d", os.Getuid()), "12d99ccaf00abcae")
	if got := lockDir("/srv/st-store"); got != want {
		t.Errorf("lockDir = %s, want %s", got, want)
	}
}
