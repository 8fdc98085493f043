package peersync

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
)

// TestMain lets this test binary stand in for st on a hub: run under the
// name "st" (stOnPath), it does `st sync watch -- <root>` and nothing else.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "st" {
		os.Exit(fakeST(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeST(args []string) int {
	if len(args) != 4 || args[0] != "sync" || args[1] != "watch" || args[2] != "--" {
		fmt.Fprintf(os.Stderr, "st: unexpected arguments %q\n", args)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if err := ReportArrivals(ctx, args[3], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "st:", err)
		return 1
	}
	return 0
}

// stOnPath returns a PATH for a hub's ssh commands on which "st" is this
// test binary (TestMain).
func stOnPath(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "st")); err != nil {
		t.Fatal(err)
	}
	return dir + ":/usr/local/bin:/usr/bin:/bin"
}
