package peersync

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// machine is one store root with its syncer, as on one computer.
type machine struct {
	t    *testing.T
	root string
	s    *Syncer
	log  *bytes.Buffer
}

func newMachine(t *testing.T, configDir string) *machine {
	t.Helper()
	if _, err := exec.LookPath("rsync"); err != nil {
		t.Skip("rsync not installed")
	}
	root := filepath.Join(t.TempDir(), "root")
	if err := os.MkdirAll(root, 0o777); err != nil {
		t.Fatal(err)
	}
	log := &bytes.Buffer{}
	return &machine{t: t, root: root, log: log, s: &Syncer{
		Root: root, ConfigDir: configDir, PathEnv: os.Getenv("PATH"), Stdout: log, Log: log,
		StateDir: t.TempDir(),
	}}
}

// wrote notes that agent wrote its own state on this machine (what
// st status --set, st context and the hooks do): its home mark.
func (m *machine) wrote(agent string) {
	m.t.Helper()
	if err := fleet.MarkHome(m.s.StateDir, m.root, agent, time.Now()); err != nil {
		m.t.Fatal(err)
	}
}

func (m *machine) tree() *fsutil.Tree {
	t, err := fsutil.OpenOrCreate(m.root)
	if err != nil {
		m.t.Fatal(err)
	}
	m.t.Cleanup(func() { t.Close() })
	return t
}

// send delivers a message from one agent to another on this machine.
func (m *machine) send(from, to, body string) string {
	m.t.Helper()
	name, err := inbox.Send(m.tree(), to, message.Message{From: from, Body: []byte(body)}, time.Now())
	if err != nil {
		m.t.Fatal(err)
	}
	return name
}

// archive moves agent's inbox file to its archive, as the owner does.
func (m *machine) archive(agent, name string) {
	m.t.Helper()
	t := m.tree()
	if err := t.MkdirAll(agent + "/archive"); err != nil {
		m.t.Fatal(err)
	}
	if err := t.MoveNoReplace(agent+"/inbox/"+name, agent+"/archive/"+name); err != nil {
		m.t.Fatal(err)
	}
}

func (m *machine) has(rel string) bool {
	_, err := os.Stat(filepath.Join(m.root, rel))
	return err == nil
}

// files lists every file under the root, relative, sorted.
func (m *machine) files() []string {
	var out []string
	filepath.WalkDir(m.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(m.root, p)
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func TestSendOnEachSideArrivesOnTheOther(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	fromA := a.send("alice", "bob", "hello from A\n")
	fromB := b.send("bob", "alice", "hello from B\n")
	peer := "local:" + b.root
	if err := a.s.Push(peer); err != nil {
		t.Fatalf("push: %v\n%s", err, a.log)
	}
	if err := a.s.Pull(peer); err != nil {
		t.Fatalf("pull: %v\n%s", err, a.log)
	}
	for _, m := range []*machine{a, b} {
		if !m.has("bob/inbox/"+fromA) || !m.has("alice/inbox/"+fromB) {
			t.Errorf("%s holds %v, want both messages", m.root, m.files())
		}
	}
	if got, want := a.files(), b.files(); !slices.Equal(got, want) {
		t.Errorf("trees differ:\nA %v\nB %v", got, want)
	}
	want := "# push: " + a.root + "/ -> " + b.root + "/\n# pull: " + b.root + "/ -> " + a.root + "/\n"
	if got := a.log.String(); got != want {
		t.Errorf("log = %q, want %q", got, want)
	}
}

func TestArchivedMessageIsNotResurrected(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	peer := "local:" + b.root
	name := a.send("bob", "alice", "archive me\n")
	if err := a.s.Push(peer); err != nil {
		t.Fatal(err)
	}
	a.archive("alice", name)

	// B still has the message in alice's inbox: the pull brings it back,
	// and the sweep after it removes it again.
	if err := a.s.Pull(peer); err != nil {
		t.Fatal(err)
	}
	if a.has("alice/inbox/" + name) {
		t.Errorf("pull resurrected alice/inbox/%s", name)
	}
	if err := a.s.Push(peer); err != nil {
		t.Fatal(err)
	}
	if a.has("alice/inbox/" + name) {
		t.Errorf("push resurrected alice/inbox/%s", name)
	}
	if !b.has("alice/archive/" + name) {
		t.Errorf("the archive copy did not reach B: %v", b.files())
	}
	// A's pull found B's inbox copy redundant and removed it on B too
	// (with the archive copy sent first), so B has nothing to sweep.
	if n := b.s.Sweep(); n != 0 {
		t.Errorf("B sweep removed %d, want 0", n)
	}
	if b.has("alice/inbox/" + name) {
		t.Errorf("B still holds the inbox copy: %v", b.files())
	}
	if got, want := a.files(), b.files(); !slices.Equal(got, want) {
		t.Errorf("trees differ:\nA %v\nB %v", got, want)
	}
}

func TestAttachmentsTravelAndStayArchived(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	peer := "local:" + b.root
	name := a.send("bob", "alice", "with attachment\n")
	att := strings.TrimSuffix(name, ".md") + ".options.json"
	blob := []byte{0, 1, 0x80, 0xff}
	if err := os.WriteFile(filepath.Join(a.root, "alice/inbox", att), blob, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := a.s.Push(peer); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(b.root, "alice/inbox", att))
	if err != nil || !bytes.Equal(got, blob) {
		t.Fatalf("attachment on B = %v, %v", got, err)
	}
	a.archive("alice", name)
	a.archive("alice", att)
	if err := a.s.Pull(peer); err != nil {
		t.Fatal(err)
	}
	if a.has("alice/inbox/"+name) || a.has("alice/inbox/"+att) {
		t.Errorf("pull resurrected the message or its attachment: %v", a.files())
	}
}

func TestStatusSurvivesPush(t *testing.T) { // st-compat §8 case 38
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	if err := os.MkdirAll(filepath.Join(a.root, "alice/inbox"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := status.Set(a.tree(), "alice", "busy"); err != nil {
		t.Fatal(err)
	}
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	if got := status.Effective(b.tree(), "alice", time.Now()); got != "busy" {
		t.Errorf("status on B = %s, want busy", got)
	}
}

func TestTempFilesAreNotShipped(t *testing.T) {
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	for _, name := range []string{".st-1714826789012-abcdef.md.42.tmp", ".status1234567", ".1714826789012-abcdef.md.tOXUiC", ".flush-errors.log"} {
		if err := os.MkdirAll(filepath.Join(a.root, "alice/inbox"), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(a.root, "alice/inbox", name), []byte("x"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.s.Push("local:" + b.root); err != nil {
		t.Fatal(err)
	}
	if got, want := b.files(), []string{"alice/inbox/.flush-errors.log"}; !slices.Equal(got, want) {
		t.Errorf("B holds %v, want %v", got, want)
	}
}

func TestFailingPeerFailsAllButOthersStillSync(t *testing.T) { // ★10, st-compat §8 case 53
	t.Setenv("RSYNC_RSH", "false") // the unreachable peer fails at once
	good := newMachine(t, t.TempDir())
	cfg := writePeers(t, "bad: nosuchhost.invalid:st\ngood: local:"+good.root+"\nbad2: other.invalid:x\nbad-again: nosuchhost.invalid:st\n")
	a := newMachine(t, cfg)
	name := a.send("alice", "bob", "to every peer\n")
	err := a.s.All("push")
	if err == nil || err.Error() != "sync failed for 3 peers: bad, bad2, bad-again" {
		t.Errorf("All(push) = %v", err)
	}
	if !good.has("bob/inbox/" + name) {
		t.Errorf("the reachable peer was not synced: %v", good.files())
	}
	log := a.log.String()
	for _, want := range []string{
		"# === push peer: nosuchhost.invalid:st ===\n# push: " + a.root + "/ -> nosuchhost.invalid:st/\n",
		"# === push peer: local:" + good.root + " ===\n",
		"rsync: connection unexpectedly closed",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "rsync push failed") {
		t.Errorf("--all printed a peer's error:\n%s", log)
	}
}

func TestAllPushThenPull(t *testing.T) {
	b := newMachine(t, t.TempDir())
	cfg := writePeers(t, "b: local:"+b.root+"\n")
	a := newMachine(t, cfg)
	fromA := a.send("alice", "bob", "a\n")
	fromB := b.send("bob", "alice", "b\n")
	if err := a.s.All(""); err != nil {
		t.Fatalf("All: %v\n%s", err, a.log)
	}
	if !a.has("alice/inbox/"+fromB) || !b.has("bob/inbox/"+fromA) {
		t.Errorf("not converged: A %v, B %v", a.files(), b.files())
	}
	if !strings.HasPrefix(a.log.String(), "# === peer: local:"+b.root+" ===\n# push: ") {
		t.Errorf("log = %q", a.log)
	}
}

func TestOneFailingPeerSingular(t *testing.T) {
	cfg := writePeers(t, "x: local:/dev/null/cannot\n")
	a := newMachine(t, cfg)
	if err := a.s.All("pull"); err == nil || err.Error() != "sync failed for 1 peer: x" {
		t.Errorf("All(pull) = %v", err)
	}
}

func TestZombieSweptEvenWhenRsyncFails(t *testing.T) { // st-compat §8 case 54
	t.Setenv("RSYNC_RSH", "false")
	a := newMachine(t, t.TempDir())
	name := a.send("bob", "alice", "zombie\n")
	if err := os.MkdirAll(filepath.Join(a.root, "alice/archive"), 0o777); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(a.root, "alice/inbox", name))
	os.WriteFile(filepath.Join(a.root, "alice/archive", name), data, 0o666)
	err := a.s.Push("nosuchhost.invalid:st")
	if err == nil || err.Error() != "rsync push failed: "+a.root+"/ -> nosuchhost.invalid:st/" {
		t.Errorf("Push = %v", err)
	}
	if a.has("alice/inbox/" + name) {
		t.Error("zombie twin not swept")
	}
}

func TestRsyncMissing(t *testing.T) {
	a := newMachine(t, t.TempDir())
	a.s.PathEnv = t.TempDir()
	err := a.s.Pull("local:" + t.TempDir())
	if err == nil || !strings.HasPrefix(err.Error(), "rsync pull failed: ") {
		t.Errorf("Pull = %v", err)
	}
	if !strings.Contains(a.log.String(), "rsync is not installed") {
		t.Errorf("log = %q, want a clear message", a.log)
	}
}

func TestPushWithoutRoot(t *testing.T) {
	s := &Syncer{Root: filepath.Join(t.TempDir(), "none")}
	if err := s.Push("local:/x"); err == nil || err.Error() != "no ST_ROOT to push from: "+s.Root {
		t.Errorf("Push = %v", err)
	}
}
