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
	return forTest(t, Setup, n)
}

// ForTestQuickReadOn is ForTest on the volume whose QuickRead is on.
func ForTestQuickReadOn(t testing.TB, n int) *Store {
	t.Helper()
	return forTest(t, SetupQuickReadOn, n)
}

// ForTestStatPrefetchOff is ForTest on the volume whose StatPrefetch is
// off.
func ForTestStatPrefetchOff(t testing.TB, n int) *Store {
	t.Helper()
	return forTest(t, SetupStatPrefetchOff, n)
}

func forTest(t testing.TB, setup func(int) (*Store, error), n int) *Store {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping: GlusterFS tests are not short")
	}
	s, err := setup(n)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
