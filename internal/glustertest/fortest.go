package glustertest

import (
	"errors"
	"testing"
)

// ForTest sets up a Store with n mounts for t, closed when t ends. It
// skips t, with the reason, where the volume cannot run, and skips in
// -short mode (mounting takes a fraction of a second per mount).
func ForTest(t testing.TB, n int) *Store {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping: GlusterFS tests are not short")
	}
	s, err := Setup(n)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
