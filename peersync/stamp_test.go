package peersync

import (
	"testing"
	"time"

	"github.com/smalltalk-go/st/fleet"
)

func (m *machine) fleet(now time.Time) fleet.Fleet {
	return fleet.Read(m.tree(), m.s.Host, now, time.Hour)
}

func (m *machine) hostOf(id string) string {
	h, _ := m.fleet(time.Now()).AgentHost(id)
	return h.Name
}

// A host claims the agents that wrote their own state there, not the
// ones it merely holds: a message for bob that reaches laptop before
// build ever synced does not make bob live on laptop, and an agent with
// only an inbox has no home yet. The real host's record, once it
// travels, says where each agent lives.
func TestSyncSaysWhichHostEachAgentLivesOn(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	a.s.Host, b.s.Host = "laptop", "build"
	a.send("alice", "bob", "hello bob\n")
	a.wrote("alice")
	b.send("bob", "carol", "carol has only an inbox\n")
	b.wrote("bob")

	if err := a.s.Pull("local:" + b.root); err != nil { // build has not synced yet
		t.Fatal(err)
	}
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	if got := a.hostOf("alice"); got != "laptop" {
		t.Errorf("alice on %q, want laptop", got)
	}
	if got := a.hostOf("bob"); got != "" {
		t.Errorf("bob on %q before build synced, want unknown", got)
	}
	if err := b.s.Push("local:" + a.root); err != nil {
		t.Fatal(err)
	}
	for _, m := range []*machine{a, b} {
		for id, want := range map[string]string{"alice": "laptop", "bob": "build", "carol": ""} {
			if got := m.hostOf(id); got != want {
				t.Errorf("%s: %s on %q, want %q", m.s.Host, id, got, want)
			}
		}
	}
	// bob moves to laptop: his first own write there makes it his home.
	time.Sleep(5 * time.Millisecond)
	a.wrote("bob")
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	if got := b.hostOf("bob"); got != "laptop" {
		t.Errorf("bob on %q after moving, want laptop", got)
	}
	if got := b.fleet(time.Now()).OtherClaims("bob"); len(got) != 1 || got[0] != "build" {
		t.Errorf("other claims of bob = %v, want build (both wrote within the hour)", got)
	}
}

// A host's copy on the other side ages; a failing transfer does not
// count as a sync for the host itself.
func TestSyncedAtAndStale(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	a.s.Host, b.s.Host = "laptop", "build"
	clock := time.UnixMilli(1_000_000_000)
	a.s.Now = func() time.Time { return clock }
	a.send("alice", "bob", "hi\n")
	a.wrote("alice")
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	h, ok := b.fleet(clock.Add(30 * time.Minute)).AgentHost("alice")
	if !ok || h.Local || h.Stale || h.SyncedAt == nil || *h.SyncedAt != clock.UnixMilli() {
		t.Errorf("on build after 30m: %+v", h)
	}
	if h, _ := b.fleet(clock.Add(2 * time.Hour)).AgentHost("alice"); !h.Stale {
		t.Errorf("on build after 2h: %+v, want stale", h)
	}
	clock = clock.Add(2 * time.Hour)
	t.Setenv("RSYNC_RSH", "false")
	if err := a.s.Push("nosuchhost.invalid:st"); err == nil {
		t.Fatal("push to a dead host succeeded")
	}
	h, _ = a.fleet(clock).AgentHost("alice")
	if !h.Local || !h.Stale || *h.SyncedAt != clock.Add(-2*time.Hour).UnixMilli() || h.Failing != "push" {
		t.Errorf("laptop after a failed push: %+v, want its last good sync, stale, push failing", h)
	}
}

// A host that once pulled and now only pushes (a hub's spoke turned mesh
// host, `st sync serve push`) is not shown failing for ever because its
// last pull failed: once pulls have not been tried for the stale limit,
// only its pushes count.
func TestPushOnlyHostForgetsItsOldPullFailure(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	a.s.Host = "laptop"
	clock := time.UnixMilli(1_000_000_000)
	a.s.Now = func() time.Time { return clock }
	a.send("alice", "bob", "hi\n")
	a.wrote("alice")
	t.Setenv("RSYNC_RSH", "false")
	if err := a.s.Pull("nosuchhost.invalid:st"); err == nil {
		t.Fatal("pull from a dead host succeeded")
	}
	push := func() {
		t.Helper()
		if err := a.s.Push("local:" + b.root); err != nil {
			t.Fatal(err)
		}
	}
	push()
	if h, _ := a.fleet(clock).AgentHost("alice"); h.Failing != "pull" {
		t.Errorf("right after the failed pull: %+v, want pull failing", h)
	}
	clock = clock.Add(time.Hour + time.Minute) // past the stale limit a.fleet reads with
	push()
	if h, _ := a.fleet(clock).AgentHost("alice"); h.Failing != "" || h.Stale || *h.SyncedAt != clock.UnixMilli() {
		t.Errorf("pushing alone for the stale limit: %+v, want synced now, not failing or stale", h)
	}
}
