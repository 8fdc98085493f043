package peersync

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/smalltalk-go/st/internal/sshtest"
)

// frozenListener accepts connections on 127.0.0.1 and never answers, as
// a suspended VM or a half-dead link does. It returns its port and the
// count of connections it took.
func frozenListener(t *testing.T) (int, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 64)
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			held <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for {
			select {
			case c := <-held:
				c.Close()
			default:
				return
			}
		}
	})
	return ln.Addr().(*net.TCPAddr).Port, &accepted
}

// sshLeft reports the ssh processes still running whose arguments hold
// needle.
func sshLeft(needle string) []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
		if len(args) > 0 && filepath.Base(args[0]) == "ssh" && strings.Contains(string(data), needle) {
			out = append(out, strings.Join(args, " "))
		}
	}
	return out
}

// A peer that accepts the connection and never answers costs at most
// its deadline: --all names it by its peers.yaml name, fails, and still
// syncs the peer after it. No ssh is left behind.
func TestAllFrozenPeerCostsItsDeadline(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client")
	}
	port, _ := frozenListener(t)
	good := newMachine(t, t.TempDir())
	a := newMachine(t, writePeers(t, "frozen: 127.0.0.1:/nowhere\ngood: local:"+good.root+"\n"))
	a.s.RSH = "ssh -p " + strconv.Itoa(port) + " -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
	a.s.Deadline = 2 * time.Second
	name := a.send("alice", "bob", "past the frozen peer\n")
	err := a.s.All("")
	if err == nil || err.Error() != "sync failed for 1 peer: frozen" {
		t.Fatalf("All = %v\n%s", err, a.log)
	}
	if !good.has("bob/inbox/" + name) {
		t.Errorf("the peer after the frozen one was not synced: %v", good.files())
	}
	log := a.log.String()
	for _, want := range []string{"gave up after 2s", "# peer frozen: push failed\n", "# peer frozen: pull skipped"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	// The peers' lines come in peers.yaml order, each peer's together,
	// although the good peer finished first.
	if f, g := strings.Index(log, "=== peer: 127.0.0.1:/nowhere"), strings.Index(log, "=== peer: local:"); f < 0 || g < f ||
		strings.Index(log, "# peer frozen: pull skipped") > g {
		t.Errorf("log out of order:\n%s", log)
	}
	if left := sshLeft("-p " + strconv.Itoa(port)); len(left) > 0 {
		t.Errorf("ssh still running: %v", left)
	}
}

// A host's push to a frozen peer also costs one deadline: the read of
// the peer's records that comes first gives up, and the push with it,
// instead of connecting again to wait as long.
func TestFrozenPeerPushCostsOneDeadline(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client")
	}
	port, accepted := frozenListener(t)
	a := newMachine(t, t.TempDir())
	a.s.Host = "hosta"
	a.s.RSH = "ssh -p " + strconv.Itoa(port) + " -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
	a.s.Deadline = time.Second
	a.wrote("alice")
	err := a.s.Push("127.0.0.1:/nowhere")
	if err == nil || !strings.Contains(a.log.String(), "gave up after 1s") {
		t.Fatalf("push = %v\n%s", err, a.log)
	}
	if n := accepted.Load(); n != 1 {
		t.Errorf("the push connected %d times to the frozen peer, want once:\n%s", n, a.log)
	}
}

// The same over the real sshd, stopped (SIGSTOP) as a suspended host
// is: its port still takes connections, nothing answers.
func TestSSHAllStoppedServer(t *testing.T) {
	srv := sshtest.ForTest(t)
	stuck, good := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	a := newMachine(t, writePeers(t, "stuck: "+srv.Spec(stuck.root)+"\ngood: local:"+good.root+"\n"))
	a.s.RSH = srv.RSH()
	a.s.Deadline = 2 * time.Second
	name := a.send("alice", "bob", "past the stopped server\n")
	if err := syscall.Kill(srv.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(srv.Pid(), syscall.SIGCONT)
	err := a.s.All("push")
	if err == nil || err.Error() != "sync failed for 1 peer: stuck" {
		t.Fatalf("All = %v\n%s", err, a.log)
	}
	if !good.has("bob/inbox/"+name) || stuck.has("bob/inbox/"+name) {
		t.Errorf("good %v, stuck %v", good.files(), stuck.files())
	}
	if left := sshLeft(srv.Config); len(left) > 0 {
		t.Errorf("ssh still running: %v", left)
	}
	// Running again, the server answers: the deadline was the peer's, not
	// a mark against it.
	syscall.Kill(srv.Pid(), syscall.SIGCONT)
	if err := a.s.All("push"); err != nil {
		t.Fatalf("All after SIGCONT: %v\n%s", err, a.log)
	}
	if !stuck.has("bob/inbox/" + name) {
		t.Errorf("stuck peer not synced after it woke: %v", stuck.files())
	}
}

// Two syncs of one root never overlap: the second waits, then refuses.
func TestLockRefusesASecondSync(t *testing.T) {
	a := newMachine(t, t.TempDir())
	unlock, err := a.s.Lock(context.Background(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	second := *a.s
	if _, err := second.Lock(context.Background(), 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "another st sync is running on "+a.root) {
		t.Errorf("second Lock = %v", err)
	}
	unlock()
	unlock2, err := second.Lock(context.Background(), time.Second)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	unlock2()
	// A root that does not exist yet has nothing to lock.
	missing := Syncer{Root: filepath.Join(t.TempDir(), "none")}
	if u, err := missing.Lock(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	} else {
		u()
	}
}

func TestBackoffDoublesAndResets(t *testing.T) {
	b := &backoff{interval: time.Second, state: map[string]*peerState{}}
	now := time.Now()
	var last time.Duration
	for i := range 12 {
		w := b.fail("p", now)
		if w > time.Duration(float64(maxBackoff)*(1+serveJitter)) {
			t.Fatalf("failure %d: wait %v over the cap", i, w)
		}
		if i < 4 && w < last {
			t.Errorf("failure %d: wait %v shrank from %v", i, w, last)
		}
		last = w
	}
	if b.due("p", now) || !b.due("p", now.Add(2*maxBackoff)) || !b.due("other", now) {
		t.Error("due is wrong")
	}
	if !b.ok("p") || b.ok("p") || !b.due("p", now) {
		t.Error("ok did not reset the peer")
	}
}

// serve's watch filter notes the messages st delivers here, not those
// rsync brings, and wakes serve for them and for new folders to watch;
// the rest (state rewrites, archive moves) waits for the round.
func TestLocalChangeTellsRsyncApart(t *testing.T) {
	ev := func(op fsnotify.Op, name string) fsnotify.Event { return fsnotify.Event{Name: name, Op: op} }
	steps := []struct {
		ev   fsnotify.Event
		wake bool
	}{
		// rsync brings a message: temp file, written, renamed to its name.
		{ev(fsnotify.Create, "/r/bob/inbox/.1714826789012-abcdef.md.Xy12Zq"), false},
		{ev(fsnotify.Write, "/r/bob/inbox/.1714826789012-abcdef.md.Xy12Zq"), false},
		{ev(fsnotify.Chmod, "/r/bob/inbox/.1714826789012-abcdef.md.Xy12Zq"), false},
		{ev(fsnotify.Rename, "/r/bob/inbox/.1714826789012-abcdef.md.Xy12Zq"), false},
		{ev(fsnotify.Create, "/r/bob/inbox/1714826789012-abcdef.md"), false},
		{ev(fsnotify.Chmod, "/r/bob/inbox"), false},
		// st delivers one: its temp file, then the link.
		{ev(fsnotify.Create, "/r/bob/inbox/.st-123456.tmp"), false},
		{ev(fsnotify.Create, "/r/bob/inbox/1714826789999-zzzzzz.md"), true},
		{ev(fsnotify.Remove, "/r/bob/inbox/.st-123456.tmp"), false},
		// A status rewrite (renameio), a decision appended in place.
		{ev(fsnotify.Create, "/r/bob/.status4821937"), false},
		{ev(fsnotify.Create, "/r/bob/status"), false},
		{ev(fsnotify.Write, "/r/bob/context/decisions/x.md"), false},
		// A sweep removes a twin; an archive move.
		{ev(fsnotify.Remove, "/r/bob/inbox/1714826789012-abcdef.md"), false},
		{ev(fsnotify.Rename, "/r/bob/inbox/1714826789999-zzzzzz.md"), false},
		{ev(fsnotify.Create, "/r/bob/archive/1714826789999-zzzzzz.md"), false},
		// A new agent and its inbox, to watch.
		{ev(fsnotify.Create, "/r/carol"), true},
		{ev(fsnotify.Create, "/r/carol/inbox"), true},
		{ev(fsnotify.Create, "/r/.st-hosts"), false},
	}
	changes := newLocalChanges("/r")
	for i, s := range steps {
		if got := changes.wakes(s.ev); got != s.wake {
			t.Errorf("step %d %v: wake %v, want %v", i, s.ev, got, s.wake)
		}
	}
	want := []string{"bob/inbox/1714826789999-zzzzzz.md"}
	if got := changes.take(); !slices.Equal(got, want) {
		t.Errorf("messages noted: %q, want %q", got, want)
	}
	if got := changes.take(); len(got) != 0 {
		t.Errorf("take did not clear: %q", got)
	}
}
