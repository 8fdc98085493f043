package peersync

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/watch"
)

func TestIsRsyncTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".1714826789012-abcdef.md.Ab3dE9": true,
		".status.x0Y1z2":                  true,
		".n.aB3dE9":                       true,
		"1714826789012-abcdef.md":         false,
		"x.md.Ab3dE9":                     false, // no leading dot
		"..Ab3dE9":                        false, // no name
		".now.md.Ab3dE":                   false, // five
		".now.md.Ab-dE9":                  false,
		".st-123-abc.tmp":                 false, // st's own temp
		".sess-1.state.json":              false, // hook state
		".flush-errors.log":               false,
		".stop-failure-last":              false,
		".notes.backup":                   false, // a person's file
		".notes.bAckup":                   true,
	} {
		if got := isRsyncTemp(name); got != want {
			t.Errorf("isRsyncTemp(%q) = %v, want %v", name, got, want)
		}
	}
}

// A pull killed mid-file over the loopback sshd leaves rsync's temp file
// next to the target: no reader lists, counts or announces it; it stays
// while it could still be a live transfer's, the next sync completes the
// message, and once the temp is StaleTempAge old a sync removes it, and
// nothing else.
func TestSSHKilledPullTempIsInvisibleThenRemoved(t *testing.T) {
	srv := sshtest.ForTest(t)
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	small := b.send("bob", "alice", "small\n")
	big := "2999999999999-bigbig.md" // after small: rsync sends in name order
	body := "---\nfrom: bob\n---\n" + strings.Repeat("x", 4<<20) + "\n"
	if err := os.WriteFile(filepath.Join(b.root, "alice/inbox", big), []byte(body), 0o666); err != nil {
		t.Fatal(err)
	}
	// rsync, slowed down while the flag file exists, so the kill lands
	// mid-file.
	bin, slow := t.TempDir(), filepath.Join(t.TempDir(), "slow")
	real, err := lookPath("rsync", os.Getenv("PATH"))
	if err != nil {
		t.Skip("rsync not installed")
	}
	wrapper := "#!/bin/sh\nif [ -e " + slow + " ]; then exec " + real + " --bwlimit=1000 \"$@\"; fi\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "rsync"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(slow, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	a.s.PathEnv = bin
	// Files of st's own that look like dot-files and must stay.
	keep := []string{"alice/events/.sess-1.state.json", "alice/context/.flush-errors.log"}
	for _, k := range keep {
		os.MkdirAll(filepath.Join(a.root, filepath.Dir(k)), 0o777)
		os.WriteFile(filepath.Join(a.root, k), []byte("{}\n"), 0o666)
	}

	done := make(chan error, 1)
	go func() { done <- a.s.Pull(srv.Spec(b.root)) }()
	temp := ""
	for deadline := time.Now().Add(30 * time.Second); temp == "" && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		names, _ := filepath.Glob(filepath.Join(a.root, "alice/inbox", "."+big+".*"))
		if len(names) == 1 {
			temp = filepath.Base(names[0])
		}
	}
	if temp == "" {
		t.Fatalf("no temp file appeared: %v\n%s", a.files(), a.log)
	}
	for _, pid := range sshtest.Descendants(os.Getpid()) {
		if sshtest.Comm(pid) == "rsync" {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if err := <-done; err == nil {
		t.Fatal("the killed pull reported success")
	}
	if !a.has("alice/inbox/"+temp) || a.has("alice/inbox/"+big) {
		t.Fatalf("after the kill: %v", a.files())
	}
	// One random suffix in about 200 is six lower-case letters, which
	// isRsyncTemp leaves alone (as a person's file would be): then the
	// temp must stay.
	stale := isRsyncTemp(temp)
	if !stale {
		t.Logf("rsync's temp %q has an all-lower-case suffix: it is kept by design", temp)
	}

	tree := a.tree()
	names, _ := inbox.List(tree, "alice", inbox.Inbox)
	if !slices.Equal(names, []string{small}) {
		t.Errorf("inbox listing = %v, want only %s", names, small)
	}
	if n := agents.InboxCount(tree, "alice"); n != 1 {
		t.Errorf("agents count %d", n)
	}
	if got := watch.NewFollower(tree, watch.Setup{Single: "alice"}).Replay(); len(got) != 1 || got[0].Filename != small {
		t.Errorf("watch = %v", got)
	}

	// Fresh: it could be a live transfer's, so it stays.
	if n := a.s.RemoveStaleTemps(); n != 0 || !a.has("alice/inbox/"+temp) {
		t.Fatalf("a fresh temp was removed (%d)", n)
	}
	os.Remove(slow)
	if err := a.s.Pull(srv.Spec(b.root)); err != nil {
		t.Fatalf("the next pull: %v\n%s", err, a.log)
	}
	if got, err := os.ReadFile(filepath.Join(a.root, "alice/inbox", big)); err != nil || string(got) != body {
		t.Fatalf("the next pull did not complete the message (%d bytes, %v)", len(got), err)
	}
	if !a.has("alice/inbox/" + temp) {
		t.Fatal("the temp went before it was stale")
	}
	// An hour later, the next sync's sweep removes it, and only it.
	a.s.Now = func() time.Time { return time.Now().Add(StaleTempAge + time.Minute) }
	if err := a.s.Pull(srv.Spec(b.root)); err != nil {
		t.Fatalf("pull: %v\n%s", err, a.log)
	}
	if a.has("alice/inbox/"+temp) == stale {
		t.Errorf("the stale temp %s is there: %v, want %v", temp, stale, !stale)
	}
	for _, k := range append(keep, "alice/inbox/"+big, "alice/inbox/"+small) {
		if !a.has(k) {
			t.Errorf("%s was removed", k)
		}
	}
}
