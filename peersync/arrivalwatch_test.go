package peersync

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/sshtest"
)

// String reads a lockedWriter over a buffer while serve's goroutines
// write to it.
func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.(*bytes.Buffer).String()
}

// eventually waits up to a minute (a loaded machine) for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("gave up waiting for %s", what)
}

// hubFleet is a hub reached over sshd and two spokes that list it as
// their only peer; spoke b runs serve with rounds every interval (1000 s:
// after its first round only an arrival report can bring it a message).
type hubFleet struct {
	srv        *sshtest.Server
	hub, a, b  *machine
	spec       string
	bLog       *lockedWriter
	stopServe  func()
	serveEnded chan struct{}
}

func newHubFleet(t *testing.T, sessionPath string) *hubFleet {
	f := &hubFleet{srv: sshtest.ForTestWithPath(t, sessionPath)}
	f.hub = newMachine(t, t.TempDir())
	f.spec = f.srv.Spec(f.hub.root)
	f.a = newMachine(t, writePeers(t, "hub: "+f.spec+"\n"))
	f.b = newMachine(t, writePeers(t, "hub: "+f.spec+"\n"))
	f.b.s.RSH = f.srv.RSH()
	f.bLog = &lockedWriter{w: &bytes.Buffer{}}
	f.b.s.Log, f.b.s.Stdout = f.bLog, io.Discard
	return f
}

// serve starts b's serve, stopped when t ends.
func (f *hubFleet) serve(t *testing.T, interval time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	f.serveEnded = make(chan struct{})
	go func() {
		defer close(f.serveEnded)
		if err := f.b.s.Serve(ctx, ServeOptions{Interval: interval, Watch: "st"}); err != nil {
			t.Error(err)
		}
	}()
	f.stopServe = func() { cancel(); <-f.serveEnded }
	t.Cleanup(func() {
		f.stopServe()
		if t.Failed() {
			t.Logf("b's log:\n%s", f.bLog)
		}
	})
}

// sendViaHub sends a message from alice on a to bob and pushes it to the
// hub, as a's own serve would.
func (f *hubFleet) sendViaHub(t *testing.T, body string) string {
	t.Helper()
	name := f.a.send("alice", "bob", body)
	if err := f.a.s.Push(f.spec); err != nil {
		t.Fatalf("push: %v\n%s", err, f.a.log)
	}
	return name
}

// With st on the hub, a spoke's serve hears of a message the moment
// another spoke's push brings it to the hub, and pulls it: long before
// its next round.
func TestServePullsWhatTheHubReports(t *testing.T) {
	f := newHubFleet(t, stOnPath(t))
	f.serve(t, 1000*time.Second)
	eventually(t, "the watch connection", func() bool {
		return strings.Contains(f.bLog.String(), "# sync serve: peer hub reports the messages that reach it")
	})
	name := f.sendViaHub(t, "through the hub\n")
	eventually(t, "the message on b", func() bool { return f.b.has("bob/inbox/" + name) })

	// A dropped connection (sshd's sessions killed, as a network drop
	// would) is made again, and arrivals are pulled again.
	f.srv.KillSessions()
	eventually(t, "the drop in the log", func() bool {
		return strings.Contains(f.bLog.String(), "# sync serve: peer hub: no arrivals watch (")
	})
	eventually(t, "the connection back", func() bool {
		return strings.Count(f.bLog.String(), "reports the messages that reach it") == 2
	})
	again := f.sendViaHub(t, "after the drop\n")
	eventually(t, "the second message on b", func() bool { return f.b.has("bob/inbox/" + again) })
}

// Without st on the hub, serve says so once and its rounds (every
// second here) bring the messages.
func TestServeWithoutSTOnTheHub(t *testing.T) {
	f := newHubFleet(t, "")
	f.serve(t, time.Second)
	eventually(t, "the note", func() bool {
		return strings.Contains(f.bLog.String(), "# sync serve: peer hub: no st sync watch there (")
	})
	log := f.bLog.String()
	if !strings.Contains(log, "command not found") {
		t.Errorf("the note does not say why:\n%s", log)
	}
	name := f.sendViaHub(t, "by the round\n")
	eventually(t, "the message on b", func() bool { return f.b.has("bob/inbox/" + name) })
	f.stopServe()
	if n := strings.Count(f.bLog.String(), "no st sync watch there"); n != 1 {
		t.Errorf("said %d times:\n%s", n, f.bLog)
	}
}

// A spoke pulls at once only for a message it lacks, for an agent that
// lives here or nowhere yet: not for its own messages coming back in the
// report, nor for one between two other hosts.
func TestWantedArrival(t *testing.T) {
	b := newMachine(t, t.TempDir())
	b.s.Host = "b"
	b.wrote("bob")
	c := newMachine(t, t.TempDir())
	c.s.Host = "c"
	c.wrote("carol")
	if err := c.s.Push("local:" + b.root); err != nil { // c's record, claiming carol, reaches b
		t.Fatalf("push: %v\n%s", err, c.log)
	}
	mine := b.send("bob", "dave", "sent here\n")
	const other = "1700000000000-abcdef.md"
	tests := []struct {
		a    arrival
		want bool
	}{
		{arrival{"bob", other}, true},    // lives here
		{arrival{"erin", other}, true},   // nobody claims erin yet
		{arrival{"carol", other}, false}, // lives on c
		{arrival{"dave", mine}, false},   // already here
	}
	wanted := b.s.wantedArrival()
	for _, tt := range tests {
		if got := wanted(tt.a); got != tt.want {
			t.Errorf("wanted(%v) = %v, want %v", tt.a, got, tt.want)
		}
	}
}

// A pull that failed puts the hub in backoff (2000 s here), but what its
// watch reports next is pulled all the same: the hub has just spoken.
func TestServePullsArrivalsFromAHubInBackoff(t *testing.T) {
	f := newHubFleet(t, stOnPath(t))
	real, err := lookPath("rsync", os.Getenv("PATH"))
	if err != nil {
		t.Skip("rsync not installed")
	}
	bin, broken := t.TempDir(), filepath.Join(t.TempDir(), "broken")
	os.WriteFile(filepath.Join(bin, "rsync"), []byte("#!/bin/sh\n[ -e "+broken+" ] && exit 12\nexec "+real+" \"$@\"\n"), 0o755)
	f.b.s.PathEnv = bin
	f.serve(t, 1000*time.Second)
	eventually(t, "the watch connection", func() bool {
		return strings.Contains(f.bLog.String(), "# sync serve: peer hub reports the messages that reach it")
	})
	os.WriteFile(broken, nil, 0o666)
	first := f.sendViaHub(t, "pulled by a failing rsync\n")
	eventually(t, "the failed pull", func() bool {
		return strings.Contains(f.bLog.String(), "# sync serve: peer hub failed; next try in")
	})
	os.Remove(broken)
	second := f.sendViaHub(t, "pulled in backoff\n")
	eventually(t, "both messages on b", func() bool {
		return f.b.has("bob/inbox/"+first) && f.b.has("bob/inbox/"+second)
	})
}
