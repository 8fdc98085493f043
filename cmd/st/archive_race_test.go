package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/smalltalk-go/st/message"
)

// archiveRace sizes TestArchiveRace: messages archived, and real
// archiver processes started at once per message. ST_ARCHIVE_RACE_MESSAGES
// raises the count for the long run (scripts/archiverace).
const (
	archiveRaceMessages  = 60
	archiversPerMessage  = 4
	archiveRaceOldCopies = 30
)

// TestArchiveRace races real processes over one store: for every message,
// several `message archive` at once, while `archive trim`, `gc serve`,
// `gc serve --once` and live senders run beside them. Every process must
// exit 0 with nothing on stderr but its outcome line, and every message
// must end up archived once, its inbox copy gone.
func TestArchiveRace(t *testing.T) {
	if testing.Short() {
		t.Skip("process-level tests skipped in -short mode")
	}
	n := archiveRaceMessages
	if s := os.Getenv("ST_ARCHIVE_RACE_MESSAGES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("ST_ARCHIVE_RACE_MESSAGES=%q: %v", s, err)
		}
	}
	bin := stBinary(t)
	root := filepath.Join(t.TempDir(), "store")
	env := stEnv(root)
	in, ar := filepath.Join(root, "alice", "inbox"), filepath.Join(root, "alice", "archive")
	for _, d := range []string{in, ar} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	// Old archived messages give the trimmers something to delete.
	old := time.Now().Add(-30 * 24 * time.Hour)
	for i := range archiveRaceOldCopies {
		name := message.NewName(old.Add(time.Duration(i) * time.Millisecond))
		writeRaceMessage(t, filepath.Join(ar, name), "old "+strconv.Itoa(i))
	}
	names := make([]string, n)
	now := time.Now()
	for i := range names {
		names[i] = message.NewName(now.Add(time.Duration(i) * time.Millisecond))
		writeRaceMessage(t, filepath.Join(in, names[i]), "new "+strconv.Itoa(i))
	}

	var mu sync.Mutex
	var failures []string
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	run := func(wantStderr func(string) bool, args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if err != nil || !wantStderr(e.String()) {
			fail("st %v: %v, stderr %q", args, err, e.String())
		}
	}
	anyStderr := func(string) bool { return true }

	// Beside the archivers: a gc server sweeping as fast as it may, and
	// loops of one-shot sweeps, trims and sends until the archivers end.
	gc := exec.Command(bin, "gc", "serve", "--interval", "0.1")
	gc.Env = env
	var gcErr bytes.Buffer
	gc.Stderr = &gcErr
	if err := gc.Start(); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var side sync.WaitGroup
	loop := func(args ...string) {
		side.Add(1)
		go func() {
			defer side.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				run(anyStderr, args...)
			}
		}()
	}
	loop("gc", "serve", "--once")
	loop("message", "archive", "trim", "--older-than", "7d", "--with-attachments")
	loop("message", "send", "bob", "--subject", "live", "-m", "hello")
	envBob := stEnv(root, "ST_AGENT=bob")
	side.Add(1)
	go func() { // bob sends to alice too, so her inbox keeps changing
		defer side.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			cmd := exec.Command(bin, "message", "send", "alice", "--subject", "live", "-m", "hi")
			cmd.Env = envBob
			if out, err := cmd.CombinedOutput(); err != nil {
				fail("bob's send: %v: %s", err, out)
			}
		}
	}()

	outcome := func(s string) bool {
		return s == "archived\n" || s == "archived (idempotent: archive copy already present)\n"
	}
	for _, name := range names {
		var wg sync.WaitGroup
		for range archiversPerMessage {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run(outcome, "message", "archive", name)
			}()
		}
		wg.Wait()
	}
	close(stop)
	side.Wait()
	gc.Process.Signal(os.Interrupt)
	if err := gc.Wait(); err != nil {
		fail("gc serve: %v, stderr %q", err, gcErr.String())
	}

	for _, f := range failures {
		t.Error(f)
	}
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(in, name)); !os.IsNotExist(err) {
			t.Errorf("inbox/%s still there after archiving (%v)", name, err)
		}
		if _, err := os.Lstat(filepath.Join(ar, name)); err != nil {
			t.Errorf("archive/%s: %v", name, err)
		}
	}
}

func writeRaceMessage(t *testing.T, path, body string) {
	t.Helper()
	data := message.Format([]message.Pair{{Key: "from", Value: "bob"}, {Key: "subject", Value: "race"}}, []byte(body+"\n"))
	if err := os.WriteFile(path, data, 0o666); err != nil {
		t.Fatal(err)
	}
}
