package dashboard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
)

const (
	askA  = "1790000000000-aaaaaa.md"
	askB  = "1790000000002-bbbbbb.md"
	noAsk = "1790000000001-cccccc.md"
)

// TestPendingAcks: the fleet row and the agent page show the messages
// that ask for an acknowledgement not given yet, as inbox.Unacked finds
// them, and a rescan after an ack drops it.
func TestPendingAcks(t *testing.T) {
	root := writeStore(t, with(agentFolders, map[string]string{
		"bob/inbox/" + askA:    "---\nfrom: alice\nsubject: sign off\nack: required\n---\nok?\n",
		"bob/archive/" + askB:  "---\nfrom: alice\nack: required\n---\nand this\n",
		"bob/inbox/" + noAsk:   "---\nfrom: alice\n---\nno ack asked\n",
		"alice/inbox/" + noAsk: "---\nfrom: bob\nack: required\n---\nacked\n",
		"alice/acks/" + noAsk:  "acked: 2026-01-01T00:00:00Z\n",
	}))
	s := newServer(t, root)
	tree, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	for _, id := range []string{"alice", "bob"} {
		r, _ := s.fleet.Row(id)
		if want := inbox.Unacked(tree, id); !slices.Equal(r.Unacked, want) {
			t.Errorf("%s: row unacked %v, inbox.Unacked %v", id, r.Unacked, want)
		}
	}
	_, body := get(t, s, "/")
	if !strings.Contains(body, `<a class="acks" href="/agent/bob#acks">2 to ack</a>`) {
		t.Errorf("fleet page lacks bob's 2 to ack:\n%s", body)
	}
	if strings.Count(body, "to ack") != 1 {
		t.Errorf("fleet page: %d agents with pending acks, want 1 (bob)", strings.Count(body, "to ack"))
	}
	_, body = get(t, s, "/agent/bob")
	for _, name := range []string{askA, askB} {
		if !strings.Contains(body, `<li><a href="/agent/bob/message/`+name+`">`+name+`</a></li>`) {
			t.Errorf("agent page lacks a link to %s", name)
		}
	}
	if strings.Contains(body, `/message/`+noAsk+`">`+noAsk+`</a></li>`) {
		t.Errorf("agent page lists %s, which asks for no ack", noAsk)
	}
	if res, _ := get(t, s, "/agent/bob/message/"+askB); res.StatusCode != 200 {
		t.Errorf("the archived message's link answers %d", res.StatusCode)
	}

	if _, err := inbox.Ack(tree, "bob", askA, time.Now()); err != nil {
		t.Fatal(err)
	}
	s.fleet.Refresh([]string{"bob"})
	r, _ := s.fleet.Row("bob")
	if !slices.Equal(r.Unacked, []string{askB}) {
		t.Errorf("after acking %s: %v", askA, r.Unacked)
	}
	_, body = get(t, s, "/")
	if !strings.Contains(body, ">1 to ack</a>") {
		t.Errorf("fleet row not updated after the ack")
	}
}

// TestPendingAcksRemembers: a message's ack line is read once; the memo
// forgets messages that are gone.
func TestPendingAcksRemembers(t *testing.T) {
	root := writeStore(t, map[string]string{
		"bob/inbox/" + askA: "---\nfrom: alice\nack: required\n---\nx\n",
		"bob/inbox/" + askB: "---\nfrom: alice\n---\ny\n",
	})
	tree, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	asks := map[string]bool{}
	if got := pendingAcks(tree, "bob", asks); !slices.Equal(got, []string{askA}) {
		t.Fatalf("first scan: %v", got)
	}
	// Rewritten (which st never does): a remembered answer is not read again.
	os.WriteFile(filepath.Join(root, "bob/inbox", askA), []byte("---\nfrom: alice\n---\nx\n"), 0o644)
	if got := pendingAcks(tree, "bob", asks); !slices.Equal(got, []string{askA}) {
		t.Errorf("second scan read the message again: %v", got)
	}
	os.Remove(filepath.Join(root, "bob/inbox", askB))
	pendingAcks(tree, "bob", asks)
	if _, ok := asks[askB]; ok || len(asks) != 1 {
		t.Errorf("memo kept a removed message: %v", asks)
	}
}

// TestStoreProblemBanner: every page shows the note a hook left, and
// showing it leaves it for the person's next command.
func TestStoreProblemBanner(t *testing.T) {
	root := writeStore(t, with(agentFolders, map[string]string{
		"alice/inbox/" + noAsk: "---\nfrom: bob\n---\nhi\n",
	}))
	dirs := []string{filepath.Join(t.TempDir(), "st"), filepath.Join(t.TempDir(), "st-1000")}
	s := newServer(t, root, func(c *Config) { c.ProblemNotes = dirs })
	pages := []string{"/", "/agent/alice", "/agent/alice/message/" + noAsk, "/agent/nobody"}
	for _, p := range pages {
		if _, body := get(t, s, p); strings.Contains(body, "could not write") {
			t.Errorf("%s: banner without a note", p)
		}
	}
	note := "2026-01-01T00:00:00Z alice could not write to /r/alice (read-only file system)"
	if err := os.MkdirAll(dirs[1], 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dirs[1], hooks.ProblemNoteName(root)), []byte(note+"\n"), 0o644)
	for _, p := range pages {
		if _, body := get(t, s, p); !strings.Contains(body, `role="alert">a hook could not write to the store: `+note+`;`) {
			t.Errorf("%s: no banner", p)
		}
	}
	if got := hooks.StoreProblem(dirs, root); !strings.Contains(got, note) {
		t.Errorf("the dashboard removed the note: %q", got)
	}
	if _, body := get(t, s, "/"); strings.Contains(body, "could not write") {
		t.Errorf("banner after the note was removed")
	}
}

// TestAckSeenLive: an acknowledgement landing in an existing acks folder
// reaches the fleet row without a reload (the watcher watches acks/).
func TestAckSeenLive(t *testing.T) {
	root := writeStore(t, with(agentFolders, map[string]string{
		"bob/inbox/" + askA: "---\nfrom: alice\nack: required\n---\nx\n",
		"bob/inbox/" + askB: "---\nfrom: alice\nack: required\n---\ny\n",
		"bob/acks/" + askB:  "acked: 2026-01-01T00:00:00Z\n",
	}))
	s := newServer(t, root)
	if r, _ := s.fleet.Row("bob"); !slices.Equal(r.Unacked, []string{askA}) {
		t.Fatalf("before: %v", r.Unacked)
	}
	os.WriteFile(filepath.Join(root, "bob/acks", askA), []byte("acked: 2026-01-01T00:00:01Z\n"), 0o644)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if r, _ := s.fleet.Row("bob"); len(r.Unacked) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the ack never reached the row")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
