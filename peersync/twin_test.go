package peersync

import (
	"slices"
	"testing"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/overview"
	"github.com/smalltalk-go/st/watch"
)

// The window between a transfer that brings an archived message back
// into an inbox and the sweep after it: a real rsync over the loopback
// sshd, stopped before the sweep, leaves the twin on disk, and no reader
// lists, counts or announces it (the inbox listings, agents' count,
// overview's unread count and recent activity, st watch).
func TestSSHArchivedTwinInvisibleBeforeSweep(t *testing.T) {
	srv := sshtest.ForTest(t)
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	name := b.send("bob", "alice", "archived on A\n")
	if err := a.s.Pull(srv.Spec(b.root)); err != nil {
		t.Fatalf("pull: %v\n%s", err, a.log)
	}
	a.archive("alice", name)
	live := a.send("bob", "alice", "still new\n")
	tree := a.tree()
	follow := watch.NewFollower(tree, watch.Setup{Single: "alice"})
	if got := follow.Replay(); len(got) != 1 || got[0].Filename != live {
		t.Fatalf("replay = %v", got)
	}

	// The pull's transfer, without the sweep around it.
	if code, stderr := a.s.rsync(srv.Spec(b.root)+"/", a.root+"/", a.s.pullState(nil, nil)); code != 0 {
		t.Fatalf("rsync: %d %s", code, stderr)
	}
	if !a.has("alice/inbox/"+name) || !a.has("alice/archive/"+name) {
		t.Fatalf("the transfer did not bring the archived message back: %v", a.files())
	}
	if names, _ := inbox.List(tree, "alice", inbox.Inbox); !slices.Equal(names, []string{live}) {
		t.Errorf("inbox listing = %v, want only %s", names, live)
	}
	if n := agents.InboxCount(tree, "alice"); n != 1 {
		t.Errorf("agents count %d in alice's inbox, want 1", n)
	}
	o := overview.Get(tree, "alice", time.Now(), 10, "")
	if o.Inbox.Unread != 1 || o.Inbox.Oldest == nil || o.Inbox.Oldest.Filename != live {
		t.Errorf("overview inbox = %+v", o.Inbox)
	}
	for _, r := range o.Recent {
		if r.Kind == overview.KindMessage && r.Filename == name {
			t.Errorf("overview shows the archived message as new: %+v", r)
		}
	}
	if got := follow.Poll(); len(got) != 0 {
		t.Errorf("watch announced %v", got)
	}

	if n := a.s.Sweep(); n != 1 {
		t.Errorf("the sweep removed %d files, want the twin", n)
	}
	if names, _ := inbox.List(tree, "alice", inbox.Inbox); !slices.Equal(names, []string{live}) {
		t.Errorf("after the sweep: %v", names)
	}
}
