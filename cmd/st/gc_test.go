package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for one writer and one reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls cond until it holds; the deadline only guards against a
// hang, it is not a timing assertion.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestGcServeLoop runs gc serve in process: it removes a resurrected
// inbox twin within a cycle, and SIGINT stops it with exit 0.
func TestGcServeLoop(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"alice/inbox", "alice/archive"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	const fn = "1714826789012-abcdef.md"
	msg := []byte("---\nfrom: bob\n---\nhi\n")
	if err := os.WriteFile(filepath.Join(root, "alice/archive", fn), msg, 0o666); err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	env := map[string]string{"ST_ROOT": root}
	a := newApp([]string{"st", "gc", "serve", "--interval", "0.01"}, strings.NewReader(""), &bytes.Buffer{}, stderr,
		func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	done := make(chan int)
	go func() { done <- run(a) }()

	// The start line is printed once the signal handler is in place.
	waitFor(t, "the start line", func() bool { return strings.Contains(stderr.String(), "# gc serve: root=") })
	inboxCopy := filepath.Join(root, "alice/inbox", fn)
	if err := os.WriteFile(inboxCopy, msg, 0o666); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the sweep", func() bool { _, err := os.Stat(inboxCopy); return os.IsNotExist(err) })
	waitFor(t, "the report", func() bool { return strings.Contains(stderr.String(), "# gc: removed 1 resurrected inbox file(s)\n") })
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	want := "# gc serve: root=" + root + " interval=100ms (SIGINT/SIGTERM to stop)\n" +
		"# gc: removed 1 resurrected inbox file(s)\n# gc serve: stopped\n"
	if got := stderr.String(); got != want {
		t.Errorf("stderr =\n%s\nwant\n%s", got, want)
	}
}
