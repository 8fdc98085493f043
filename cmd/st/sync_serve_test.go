package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// TestSyncServe runs sync serve in process against a local peer: a
// message sent on host A after the first round reaches host B without
// any sync being run by hand (the rounds are 1000 s apart, so only the
// push after the local change can carry it), a second sync on A's store
// is refused while serve holds the lock, and SIGTERM ends serve with
// exit 0.
func TestSyncServe(t *testing.T) {
	if _, err := exec.LookPath("rsync"); err != nil {
		t.Skip("rsync not installed")
	}
	rootA, rootB, cfg := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b"), t.TempDir()
	if err := os.WriteFile(filepath.Join(cfg, "peers.yaml"), []byte("b: local:"+rootB+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	send := func(body string) string {
		t.Helper()
		tr, err := fsutil.OpenOrCreate(rootA)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		name, err := inbox.Send(tr, "bob", message.Message{From: "alice", Body: []byte(body)}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return name
	}
	onB := func(name string) func() bool {
		return func() bool { _, err := os.Stat(filepath.Join(rootB, "bob/inbox", name)); return err == nil }
	}
	first := send("before serve\n")
	env := map[string]string{"ST_ROOT": rootA, "ST_CONFIG": cfg, "PATH": os.Getenv("PATH"), "ST_HOST": "a"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	stderr := &lockedBuffer{}
	a := newApp([]string{"st", "sync", "serve", "--interval", "1000"}, strings.NewReader(""), &bytes.Buffer{}, stderr, lookup)
	done := make(chan int)
	go func() { done <- run(a) }()
	waitFor(t, "the start line", func() bool { return strings.Contains(stderr.String(), "# sync serve: root=") })
	waitFor(t, "the first round", onB(first))

	second := send("while serve runs\n")
	waitFor(t, "the push after the change", onB(second))

	// A new agent's folder is watched as it appears.
	tr, err := fsutil.Open(rootA)
	if err != nil {
		t.Fatal(err)
	}
	carol, err := inbox.Send(tr, "carol", message.Message{From: "alice", Body: []byte("new agent\n")}, time.Now())
	tr.Close()
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new agent's message", func() bool {
		_, err := os.Stat(filepath.Join(rootB, "carol/inbox", carol))
		return err == nil
	})

	other := &bytes.Buffer{}
	if code := run(newApp([]string{"st", "sync", "push", "b"}, strings.NewReader(""), &bytes.Buffer{}, other, lookup)); code != 1 ||
		!strings.Contains(other.String(), "another st sync is running on "+rootA) {
		t.Errorf("a second sync while serve runs: exit %d, %q", code, other)
	}

	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != 0 {
		t.Errorf("exit %d, want 0\n%s", code, stderr)
	}
	if !strings.HasSuffix(stderr.String(), "# sync serve: stopped\n") {
		t.Errorf("stderr:\n%s", stderr)
	}
}
