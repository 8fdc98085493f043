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

// Each host claims its own agents when it syncs; an agent that first
// arrives through a pull is never claimed by the puller, and the real
// host's record, once it travels, says where it lives.
func TestSyncSaysWhichHostEachAgentLivesOn(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	a.s.Host, b.s.Host = "laptop", "build"
	a.send("alice", "alice", "note to self\n")
	b.send("bob", "bob", "note to self\n")
	b.send("bob", "carol", "carol lives on build too\n")

	if err := a.s.Pull("local:" + b.root); err != nil { // build has not synced yet
		t.Fatal(err)
	}
	if got := a.hostOf("alice"); got != "laptop" {
		t.Errorf("alice on %q, want laptop", got)
	}
	for _, id := range []string{"bob", "carol"} {
		if got := a.hostOf(id); got != "" {
			t.Errorf("%s on %q before build synced, want unknown", id, got)
		}
	}
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	// Build now holds alice and laptop's record: its own sync claims
	// only bob and carol, and its push tells laptop.
	if err := b.s.Push("local:" + a.root); err != nil {
		t.Fatal(err)
	}
	for _, m := range []*machine{a, b} {
		for id, want := range map[string]string{"alice": "laptop", "bob": "build", "carol": "build"} {
			if got := m.hostOf(id); got != want {
				t.Errorf("%s: %s on %q, want %s", m.s.Host, id, got, want)
			}
		}
	}
	// A new agent on laptop is claimed at its next sync.
	a.send("dave", "dave", "new here\n")
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	if got := b.hostOf("dave"); got != "laptop" {
		t.Errorf("dave on %q, want laptop", got)
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
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	h, ok := b.fleet(clock.Add(30 * time.Minute)).AgentHost("bob")
	if !ok || h.Local || h.Stale || h.SyncedAt == nil || *h.SyncedAt != clock.UnixMilli() {
		t.Errorf("on build after 30m: %+v", h)
	}
	if h, _ := b.fleet(clock.Add(2 * time.Hour)).AgentHost("bob"); !h.Stale {
		t.Errorf("on build after 2h: %+v, want stale", h)
	}
	clock = clock.Add(2 * time.Hour)
	t.Setenv("RSYNC_RSH", "false")
	if err := a.s.Push("nosuchhost.invalid:st"); err == nil {
		t.Fatal("push to a dead host succeeded")
	}
	h, _ = a.fleet(clock).AgentHost("bob")
	if !h.Local || !h.Stale || *h.SyncedAt != clock.Add(-2*time.Hour).UnixMilli() {
		t.Errorf("laptop after a failed push: %+v, want its last good sync, stale", h)
	}
}
