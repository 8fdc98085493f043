package peersync

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// faultRuns is how many killed syncs TestSSHFaults makes: a few in the
// suite, hundreds from scripts/syncfaults (ST_FAULT_RUNS).
func faultRuns() int {
	if n, err := strconv.Atoi(os.Getenv("ST_FAULT_RUNS")); err == nil && n > 0 {
		return n
	}
	return 6
}

// ledger remembers every message sent, by agent and name, with its bytes.
type ledger struct {
	mu   sync.Mutex
	sent map[string][]byte // "<agent>/<name>" -> bytes
}

// sender sends to the agents on its host until stop closes; every tenth
// message is 512 KiB, so kills land mid-file.
func sender(t *testing.T, m *machine, l *ledger, who string, stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	tree, err := fsutil.OpenOrCreate(m.root)
	if err != nil {
		t.Error(err)
		return
	}
	defer tree.Close()
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		default:
		}
		body := fmt.Sprintf("%s-%d\n", who, n)
		if n%10 == 0 {
			body += strings.Repeat("x", 512<<10) + "\n"
		}
		to := []string{"alice", "bob"}[n%2]
		// Under the ledger's lock, so a check never sees a message the
		// ledger does not know yet.
		l.mu.Lock()
		name, err := inbox.Send(tree, to, message.Message{From: who, Body: []byte(body)}, time.Now())
		if err != nil {
			l.mu.Unlock()
			t.Error(err)
			return
		}
		data, err := os.ReadFile(filepath.Join(m.root, to, "inbox", name))
		if err != nil { // archived already
			data, err = os.ReadFile(filepath.Join(m.root, to, "archive", name))
		}
		if err != nil {
			l.mu.Unlock()
			t.Error(err)
			return
		}
		l.sent[to+"/"+name] = data
		l.mu.Unlock()
		time.Sleep(time.Duration(20+rand.IntN(40)) * time.Millisecond)
	}
}

// archiver archives bob's messages on its host now and then, as bob would.
func archiver(m *machine, stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	tree, err := fsutil.OpenOrCreate(m.root)
	if err != nil {
		return
	}
	defer tree.Close()
	tree.MkdirAll("bob/archive")
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(30+rand.IntN(50)) * time.Millisecond):
		}
		names, _ := tree.ReadDirNames("bob/inbox")
		for _, n := range names {
			if message.IsCanonical(n) && rand.IntN(3) == 0 {
				tree.MoveNoReplace("bob/inbox/"+n, "bob/archive/"+n)
			}
		}
	}
}

// stateWriter is one agent rewriting its own state at home: its status,
// now.md (which names a version) and now and then a decision, as
// st status --set and st context do, with the home mark they leave.
type stateWriter struct {
	m     *machine
	agent string
	mu    sync.Mutex
	v     int    // versions written
	now   string // the newest now.md
	decs  int    // decisions written
	seen  map[*machine]int
	// reverted counts the times a host held an older now.md than it had
	// held before, or the home host not its own newest.
	reverted int
}

func (w *stateWriter) run(t *testing.T, stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	tree, err := fsutil.OpenOrCreate(w.m.root)
	if err != nil {
		t.Error(err)
		return
	}
	defer tree.Close()
	tree.MkdirAll(w.agent + "/context")
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(30+rand.IntN(60)) * time.Millisecond):
		}
		w.mu.Lock()
		w.v++
		body := fmt.Sprintf("%s v%d\n", w.agent, w.v)
		err := status.Set(tree, w.agent, stateStates[w.v%len(stateStates)])
		if err == nil {
			_, err = agentctx.WriteNow(tree, w.agent, []byte(body))
		}
		if err == nil && w.v%5 == 0 {
			if _, err = agentctx.Append(tree, w.agent, fmt.Sprintf("decision %d", w.v), "faults", time.Now()); err == nil {
				w.decs++
			}
		}
		if err == nil {
			w.now = body
			err = fleet.MarkHome(w.m.s.StateDir, w.m.root, w.agent, time.Now())
		}
		w.mu.Unlock()
		if err != nil {
			t.Error(err)
			return
		}
	}
}

// check looks at the agent's now.md on m: the home host holds its
// newest write, and no host holds an older version than it did before.
func (w *stateWriter) check(t *testing.T, m *machine, when string) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	data, err := os.ReadFile(filepath.Join(m.root, w.agent, "context/now.md"))
	if err != nil {
		return // not there yet
	}
	if m == w.m && string(data) != w.now {
		w.reverted++
		t.Errorf("%s: the home host holds %s's now.md %q, wrote %q", when, w.agent, data, w.now)
	}
	v := versionOf(data)
	if v < w.seen[m] {
		w.reverted++
		t.Errorf("%s: %s's now.md went back from v%d to v%d", when, w.agent, w.seen[m], v)
	}
	w.seen[m] = max(w.seen[m], v)
}

// checkNoTorn fails for any file at a canonical name that is not, byte
// for byte, a message that was sent under that name.
func checkNoTorn(t *testing.T, m *machine, l *ledger, when string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, agent := range []string{"alice", "bob"} {
		for _, dir := range []string{"inbox", "archive"} {
			entries, _ := os.ReadDir(filepath.Join(m.root, agent, dir))
			for _, e := range entries {
				if !message.IsCanonical(e.Name()) {
					continue
				}
				got, err := os.ReadFile(filepath.Join(m.root, agent, dir, e.Name()))
				if errors.Is(err, fs.ErrNotExist) {
					continue // archived or swept since the listing
				}
				want, ok := l.sent[agent+"/"+e.Name()]
				if err != nil || !ok || !bytes.Equal(got, want) {
					t.Errorf("%s: %s/%s/%s is torn or unknown (%d bytes, sent %v, %v)", when, agent, dir, e.Name(), len(got), ok, err)
				}
			}
		}
	}
}

// holdings maps "<agent>/<name>" to where the host holds it.
func holdings(m *machine) map[string][]string {
	out := map[string][]string{}
	for _, agent := range []string{"alice", "bob"} {
		for _, dir := range []string{"inbox", "archive"} {
			names, _ := filepath.Glob(filepath.Join(m.root, agent, dir, "*.md"))
			for _, p := range names {
				out[agent+"/"+filepath.Base(p)] = append(out[agent+"/"+filepath.Base(p)], dir)
			}
		}
	}
	return out
}

// killNames names kill's faults, by how.
var killNames = []string{"sshd session", "local rsync", "ssh client", "remote rsync", "server restart"}

// kill injects one fault: the connection's sshd, the local or remote
// rsync or ssh, or the whole server.
func kill(srv *sshtest.Server, how int) {
	switch how {
	case 0:
		srv.KillSessions()
	case 1, 2:
		want := map[int]string{1: "rsync", 2: "ssh"}[how]
		for _, pid := range sshtest.Descendants(os.Getpid()) {
			if sshtest.Comm(pid) == want {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	case 3:
		for _, pid := range sshtest.Descendants(srv.Pid()) {
			if sshtest.Comm(pid) == "rsync" {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	default:
		srv.Restart()
	}
}

// Syncs over ssh killed at random points, with senders writing on both
// hosts, an archiver on one, and both ends syncing at once: nothing torn
// at a final name at any point, and once a sync completes nothing is
// lost, nothing is at two names, nothing archived is back in an inbox.
func TestSSHFaults(t *testing.T) {
	srv := sshtest.ForTest(t)
	a, b := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	a.s.Host, b.s.Host = "a", "b"
	l := &ledger{sent: map[string][]byte{}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	// alice lives on A, bob on B: each rewrites its state at home.
	writers := []*stateWriter{{m: a, agent: "alice", seen: map[*machine]int{}}, {m: b, agent: "bob", seen: map[*machine]int{}}}
	wg.Add(5)
	go sender(t, a, l, "from-a", stop, &wg)
	go sender(t, b, l, "from-b", stop, &wg)
	go archiver(b, stop, &wg)
	for _, w := range writers {
		go w.run(t, stop, &wg)
	}
	var once sync.Once
	halt := func() { once.Do(func() { close(stop); wg.Wait() }) }
	t.Cleanup(halt)

	failed, dishonest := 0, 0
	kills := make([]int, len(killNames))
	for run := range faultRuns() {
		// What the source holds that cannot move during the run: all of
		// it on A (nobody archives there), alice's and the archive on B.
		src, dst, verb := a, b, "push"
		if run%2 == 1 {
			src, dst, verb = b, a, "pull"
		}
		var settled []string
		for key, where := range holdings(src) {
			if src == a || strings.HasPrefix(key, "alice/") || where[0] == "archive" {
				settled = append(settled, key)
			}
		}
		var syncs sync.WaitGroup
		errs := make([]error, 2)
		syncs.Go(func() {
			if run%2 == 0 {
				errs[0] = a.s.Push(srv.Spec(b.root))
			} else {
				errs[0] = a.s.Pull(srv.Spec(b.root))
			}
		})
		if run%3 == 0 { // both ends at once
			syncs.Go(func() { errs[1] = b.s.Pull(srv.Spec(a.root)) })
		}
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		how := rand.IntN(len(kills))
		kill(srv, how)
		kills[how]++
		syncs.Wait()
		if errs[0] != nil || errs[1] != nil {
			failed++
		}
		// A sync that reports success has copied everything it was
		// sent for.
		if errs[0] == nil {
			h := holdings(dst)
			for _, key := range settled {
				if h[key] == nil {
					dishonest++
					t.Errorf("run %d: the %s reported success, but the other side lacks %s", run, verb, key)
				}
			}
		}
		checkNoTorn(t, a, l, fmt.Sprintf("run %d, A", run))
		checkNoTorn(t, b, l, fmt.Sprintf("run %d, B", run))
		for _, w := range writers {
			w.check(t, a, fmt.Sprintf("run %d, A", run))
			w.check(t, b, fmt.Sprintf("run %d, B", run))
		}
		if t.Failed() {
			t.Fatalf("run %d:\nA log:\n%s\nB log:\n%s", run, a.log, b.log)
		}
		if (run+1)%50 == 0 {
			t.Logf("%d runs, %d failed mid-transfer, nothing torn", run+1, failed)
		}
	}
	halt()

	// The next sync completes: push and pull, then B's push so A learns
	// of B's archive, then the sweep on each (gc serve).
	for _, step := range []func() error{
		func() error { return a.s.Push(srv.Spec(b.root)) },
		func() error { return a.s.Pull(srv.Spec(b.root)) },
		func() error { return b.s.Push(srv.Spec(a.root)) },
	} {
		if err := step(); err != nil {
			t.Fatalf("the sync after the faults failed: %v\n%s%s", err, a.log, b.log)
		}
	}
	a.s.Sweep()
	b.s.Sweep()
	// Killed transfers leave rsync temp files; once stale, a sweep
	// removes them (and nothing else: the checks below still hold).
	var temps int
	for _, m := range []*machine{a, b} {
		m.s.Now = func() time.Time { return time.Now().Add(StaleTempAge + time.Minute) }
		temps += m.s.RemoveStaleTemps()
	}
	ha, hb := holdings(a), holdings(b)
	var lost, doubled, resurrected int
	for key := range l.sent {
		for host, h := range map[string]map[string][]string{"A": ha, "B": hb} {
			switch where := h[key]; {
			case len(where) == 0:
				lost++
				t.Errorf("%s lost %s", host, key)
			case len(where) > 1:
				doubled++
				t.Errorf("%s holds %s at two names: %v", host, key, where)
			}
		}
		if ha[key] != nil && hb[key] != nil && ha[key][0] != hb[key][0] {
			resurrected++
			t.Errorf("%s is in A's %s but B's %s", key, ha[key][0], hb[key][0])
		}
	}
	checkNoTorn(t, a, l, "after")
	checkNoTorn(t, b, l, "after")
	// Every host holds each agent's newest state and every decision.
	reverted, states := 0, 0
	for _, w := range writers {
		for _, m := range []*machine{a, b} {
			w.check(t, m, "after")
			data, _ := os.ReadFile(filepath.Join(m.root, w.agent, "context/now.md"))
			if string(data) != w.now {
				t.Errorf("after: %s holds %s's now.md %q, the newest is %q", m.s.Host, w.agent, data, w.now)
			}
			decs, _ := os.ReadDir(filepath.Join(m.root, w.agent, "context/decisions"))
			if len(decs) != w.decs {
				t.Errorf("after: %s holds %d of %s's %d decisions", m.s.Host, len(decs), w.agent, w.decs)
			}
		}
		reverted += w.reverted
		states += w.v
	}
	if len(l.sent) == 0 {
		t.Fatal("nothing was sent")
	}
	for _, m := range []*machine{a, b} {
		filepath.WalkDir(m.root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && isRsyncTemp(d.Name()) {
				t.Errorf("an rsync temp file survived the sweep: %s", p)
			}
			return nil
		})
	}
	var byKind []string
	for i, n := range kills {
		byKind = append(byKind, fmt.Sprintf("%d %s", n, killNames[i]))
	}
	t.Logf("result: %d runs, %d kills (%s), %d syncs failed mid-transfer, %d reported success without the data; %d messages sent, %d lost, %d at two names, %d resurrected, torn none; %d state rewrites (status, now.md, every 5th a decision), %d reverted; %d rsync temp files removed once stale",
		faultRuns(), faultRuns(), strings.Join(byKind, ", "), failed, dishonest, len(l.sent), lost, doubled, resurrected, states, reverted, temps)
}
