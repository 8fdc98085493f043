package peersync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/status"
)

// A copy by name moves the named messages and nothing else, over sshd,
// both ways: a message already at the other end is left alone, one
// gone meanwhile is no failure.
func TestCopyMessagesByName(t *testing.T) {
	srv := sshtest.ForTest(t)
	hub, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	b.s.RSH = srv.RSH()
	peer := Peer{Name: "hub", Spec: srv.Spec(hub.root)}
	wanted := hub.send("alice", "bob", "wanted\n")
	other := hub.send("alice", "bob", "not asked for\n")
	if err := hub.tree().MkdirAll("alice"); err != nil {
		t.Fatal(err)
	}
	if err := status.Set(hub.tree(), "alice", "busy"); err != nil {
		t.Fatal(err)
	}
	if b.s.copyMessages("pull", peer, []string{"bob/inbox/" + wanted, "bob/inbox/1714826789012-gone00.md"}) {
		t.Fatalf("pull failed:\n%s", b.log)
	}
	if got := strings.Join(b.files(), " "); got != "bob/inbox/"+wanted {
		t.Errorf("b holds %s, want only the message asked for", got)
	}

	// b's own copy of a message the hub holds stays b's; a new one goes.
	mine := b.send("bob", "alice", "from b\n")
	if err := os.WriteFile(filepath.Join(b.root, "bob/inbox", other), []byte("b's copy\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if b.s.copyMessages("push", peer, []string{"alice/inbox/" + mine, "bob/inbox/" + other}) {
		t.Fatalf("push failed:\n%s", b.log)
	}
	if !hub.has("alice/inbox/" + mine) {
		t.Error("the new message did not reach the hub")
	}
	if data, _ := os.ReadFile(filepath.Join(hub.root, "bob/inbox", other)); string(data) == "b's copy\n" {
		t.Error("the push replaced a message the hub already held")
	}
}

// serve copies a message delivered here to its peer at once, by name:
// the status written just before it waits for the next round (1000 s
// away here), where a whole push would have carried it along.
func TestServeCopiesMessagesAtOnceAndStateWithTheRound(t *testing.T) {
	b := newMachine(t, t.TempDir())
	a := newMachine(t, writePeers(t, "b: local:"+b.root+"\n"))
	first := a.send("alice", "bob", "before serve\n")
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		if err := a.s.Serve(ctx, ServeOptions{Verb: "push", Interval: 1000 * time.Second}); err != nil {
			t.Error(err)
		}
	}()
	defer func() { cancel(); <-ended }()
	eventually(t, "the first round", func() bool { return b.has("bob/inbox/" + first) })

	if err := a.tree().MkdirAll("alice"); err != nil {
		t.Fatal(err)
	}
	if err := status.Set(a.tree(), "alice", "busy"); err != nil {
		t.Fatal(err)
	}
	second := a.send("alice", "bob", "while serve runs\n")
	eventually(t, "the message copied at once", func() bool { return b.has("bob/inbox/" + second) })
	if b.has("alice/status") {
		t.Error("the status went with the message, not with the round")
	}
}
