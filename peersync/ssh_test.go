package peersync

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/smalltalk-go/st/internal/sshtest"
)

// Every "host" in these tests is a store root reached only through the
// loopback sshd: peers are user@127.0.0.1:PATH specs.

func TestSSHPushAndPull(t *testing.T) {
	srv := sshtest.ForTest(t)
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	fromA := a.send("alice", "bob", "hello from A\n")
	fromB := b.send("bob", "alice", "hello from B\n")
	peer := srv.Spec(b.root)
	if err := a.s.Push(peer); err != nil {
		t.Fatalf("push: %v\n%s", err, a.log)
	}
	if !b.has("bob/inbox/" + fromA) {
		t.Fatalf("push did not reach B: %v", b.files())
	}
	if err := a.s.Pull(peer); err != nil {
		t.Fatalf("pull: %v\n%s", err, a.log)
	}
	if !a.has("alice/inbox/" + fromB) {
		t.Fatalf("pull did not bring B's message: %v", a.files())
	}
	if got, want := a.files(), b.files(); !slices.Equal(got, want) {
		t.Errorf("trees differ:\nA %v\nB %v", got, want)
	}
	if !strings.Contains(a.log.String(), "# push: "+a.root+"/ -> "+peer+"/\n") {
		t.Errorf("log = %q", a.log)
	}
}

func TestSSHAllAcrossThreeHosts(t *testing.T) {
	srv := sshtest.ForTest(t)
	b, c := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	a := newMachine(t, writePeers(t, "b: "+srv.Spec(b.root)+"\nc: "+srv.Spec(c.root)+"\n"))
	b.s.ConfigDir = writePeers(t, "a: "+srv.Spec(a.root)+"\n")
	sent := []string{
		"bob/inbox/" + a.send("alice", "bob", "a to bob\n"),
		"carol/inbox/" + b.send("bob", "carol", "b to carol\n"),
		"alice/inbox/" + c.send("carol", "alice", "c to alice\n"),
	}
	// C's message reaches B only through A: A gathers, then B syncs with A,
	// then A passes B's on to C.
	if err := a.s.All(""); err != nil {
		t.Fatalf("A sync --all: %v\n%s", err, a.log)
	}
	if err := b.s.All(""); err != nil {
		t.Fatalf("B sync --all: %v\n%s", err, b.log)
	}
	if err := a.s.All("push"); err != nil {
		t.Fatalf("A sync push --all: %v\n%s", err, a.log)
	}
	for _, m := range []*machine{a, b, c} {
		for _, rel := range sent {
			if !m.has(rel) {
				t.Errorf("%s lacks %s: %v", m.root, rel, m.files())
			}
		}
	}
}

func TestSSHAllNamesTheFailedPeer(t *testing.T) {
	srv := sshtest.ForTest(t)
	b := newMachine(t, t.TempDir())
	// A path rsync cannot create on the server, and a host alias nothing
	// answers at (the server's config knows only 127.0.0.1).
	bad := srv.Spec("/dev/null/cannot")
	a := newMachine(t, writePeers(t, "bad: "+bad+"\nb: "+srv.Spec(b.root)+"\ngone: "+srv.User+"@127.0.0.2:/nowhere\n"))
	name := a.send("alice", "bob", "still delivered\n")
	err := a.s.All("")
	if err == nil || err.Error() != "sync failed for 2 peers: bad, gone" {
		t.Fatalf("All = %v\n%s", err, a.log)
	}
	if !b.has("bob/inbox/" + name) {
		t.Errorf("the good peer was not synced: %v", b.files())
	}
}

// A sweep cycle is a sync with every peer, in any order, then a sweep
// (gc serve) on every host. Every order runs over local: peers (the
// tombstone logic does not depend on the transport), one over SSH.
func TestArchivedStaysArchivedInEveryOrder(t *testing.T) {
	local := func(m *machine) string { return "local:" + m.root }
	for i, order := range [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		if i > 0 && testing.Short() {
			break // one order in -short mode; each takes seconds
		}
		archiveCycle(t, order, local)
	}
}

func TestSSHArchivedStaysArchived(t *testing.T) {
	srv := sshtest.ForTest(t)
	archiveCycle(t, [3]int{2, 0, 1}, func(m *machine) string { return srv.Spec(m.root) })
}

// archiveCycle: B's message reaches every host; A archives it; each
// host in order pulls from and pushes to the others; every host sweeps.
// It must stay archived everywhere, and stay so through one more cycle.
func archiveCycle(t *testing.T, order [3]int, spec func(*machine) string) {
	t.Helper()
	hosts := []*machine{newMachine(t, t.TempDir()), newMachine(t, t.TempDir()), newMachine(t, t.TempDir())}
	name := hosts[1].send("bob", "alice", "archive me on A\n")
	for _, h := range []*machine{hosts[0], hosts[2]} {
		if err := hosts[1].s.Push("local:" + h.root); err != nil {
			t.Fatal(err)
		}
	}
	hosts[0].archive("alice", name)
	for cycle := range 2 {
		for _, i := range order {
			for j, other := range hosts {
				if j == i {
					continue
				}
				if err := hosts[i].s.Pull(spec(other)); err != nil {
					t.Fatalf("pull: %v\n%s", err, hosts[i].log)
				}
				if err := hosts[i].s.Push(spec(other)); err != nil {
					t.Fatalf("push: %v\n%s", err, hosts[i].log)
				}
			}
		}
		for _, h := range hosts {
			h.s.Sweep() // gc serve's cycle
		}
		for i, h := range hosts {
			if h.has("alice/inbox/" + name) {
				t.Errorf("order %v, cycle %d: host %d resurrected the archived message", order, cycle, i)
			}
			if !h.has("alice/archive/" + name) {
				t.Errorf("order %v, cycle %d: host %d lacks the tombstone", order, cycle, i)
			}
		}
	}
}

// A peer ships symlinks out of the root (to a file, to a folder, and
// one --safe-links would let through), a FIFO, a bad name and a 2 GiB
// sparse file: the pull copies the messages and none of the rest.
func TestSSHPeerCannotShipUnsafeFiles(t *testing.T) {
	srv := sshtest.ForTest(t)
	a, evil := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	good := evil.send("mallory", "alice", "an ordinary message\n")
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("outside the root\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := filepath.Join(evil.root, "alice/context")
	must(os.MkdirAll(ctx, 0o777))
	must(os.Symlink(secret, filepath.Join(ctx, "now.md")))
	must(os.Symlink(filepath.Dir(secret), filepath.Join(evil.root, "alice/resources")))
	// A link --safe-links would pass: its text stays inside, it resolves out.
	must(os.MkdirAll(filepath.Join(evil.root, "bob/d"), 0o777))
	must(os.Symlink("..", filepath.Join(evil.root, "bob/d/up")))
	must(os.Symlink("up/../..", filepath.Join(evil.root, "bob/d/out")))
	must(syscall.Mkfifo(filepath.Join(evil.root, "alice/inbox/1714826789012-fifo00.md"), 0o666))
	bad := filepath.Join(evil.root, "alice/inbox", "bad\nname .md")
	must(os.WriteFile(bad, []byte("---\nfrom: x\n---\n"), 0o666))
	big, err := os.Create(filepath.Join(evil.root, "alice/inbox/1714826789012-bigbig.md"))
	must(err)
	must(big.Truncate(2 << 30))
	must(big.Close())

	if err := a.s.Pull(srv.Spec(evil.root)); err != nil {
		t.Fatalf("pull: %v\n%s", err, a.log)
	}
	if !a.has("alice/inbox/" + good) {
		t.Errorf("the ordinary message did not arrive: %v", a.files())
	}
	var links, specials []string
	filepath.Walk(a.root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			links = append(links, p)
		case !fi.Mode().IsRegular() && !fi.IsDir():
			specials = append(specials, p)
		case fi.Size() > MaxFileBytes:
			t.Errorf("a %d-byte file arrived: %s", fi.Size(), p)
		}
		return nil
	})
	if len(links) > 0 || len(specials) > 0 {
		t.Errorf("the pull imported links %v and special files %v", links, specials)
	}
	// The bad name is an ordinary file: it arrives, and readers skip it
	// because it is not a canonical message name.
	if !a.has("alice/inbox/bad\nname .md") {
		t.Errorf("files: %v", a.files())
	}
	if !strings.Contains(a.log.String(), `skipping non-regular file "alice/context/now.md"`) {
		t.Errorf("rsync did not say what it skipped:\n%s", a.log)
	}
	if !strings.Contains(a.log.String(), "# pull: skipped alice/inbox/1714826789012-bigbig.md: larger than 256 MiB\n") {
		t.Errorf("the log does not name the file skipped for size:\n%s", a.log)
	}
}

// A fresh account has no store folder yet: the first push creates it,
// however deep, instead of failing every sync until someone logs in.
func TestSSHFirstPushCreatesTheStoreFolder(t *testing.T) {
	srv := sshtest.ForTest(t)
	a := newMachine(t, t.TempDir())
	name := a.send("alice", "bob", "first contact\n")
	fresh := filepath.Join(t.TempDir(), "home", ".local", "state", "smalltalk")
	if err := a.s.Push(srv.Spec(fresh)); err != nil {
		t.Fatalf("push to a fresh peer: %v\n%s", err, a.log)
	}
	if _, err := os.Stat(filepath.Join(fresh, "bob/inbox", name)); err != nil {
		t.Errorf("the message did not arrive: %v", err)
	}
}
