package sshtest

import (
	"errors"
	"testing"
)

// ForTest starts a server for t, stopped when t ends, and points rsync at
// it (RSYNC_RSH). It skips t, with one line, where sshd cannot run.
func ForTest(t testing.TB) *Server {
	t.Helper()
	return ForTestWithPath(t, "")
}

// ForTestWithPath is ForTest for a server whose commands run with PATH
// set to sessionPath (StartWithPath).
func ForTestWithPath(t testing.TB, sessionPath string) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("a real sshd: skipped in -short mode")
	}
	s, err := StartWithPath(t.TempDir(), sessionPath)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	t.Setenv("RSYNC_RSH", s.RSH())
	return s
}
