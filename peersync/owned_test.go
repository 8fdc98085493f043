package peersync

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/status"
)

// A host of the ownership tests: a machine whose clock (its writes'
// modification times, its records, its home marks) is off by skew.
type host struct {
	*machine
	skew time.Duration
}

func newHost(t *testing.T, name string, skew time.Duration) *host {
	m := newMachine(t, t.TempDir())
	m.s.Host = name
	h := &host{machine: m, skew: skew}
	m.s.Now = h.now
	return h
}

func (h *host) now() time.Time { return time.Now().Add(h.skew) }

// writeAs makes agent id write its own state on h, as st status --set,
// st context write and its hooks do: status, now.md, an event line and
// the home mark.
func (h *host) writeAs(id, state, now string) {
	h.t.Helper()
	tr := h.tree().Clock(h.now)
	for _, dir := range []string{id + "/context", id + "/events"} {
		if err := tr.MkdirAll(dir); err != nil {
			h.t.Fatal(err)
		}
	}
	if err := status.Set(tr, id, state); err != nil {
		h.t.Fatal(err)
	}
	if _, err := agentctx.WriteNow(tr, id, []byte(now)); err != nil {
		h.t.Fatal(err)
	}
	if err := tr.AppendLine(context.Background(), id+"/events/s1.jsonl", []byte(`{"now":`+strconv.Quote(now)+"}\n")); err != nil {
		h.t.Fatal(err)
	}
	if err := fleet.MarkHome(h.s.StateDir, h.root, id, h.now()); err != nil {
		h.t.Fatal(err)
	}
}

// read returns agent id's status and now.md on h.
func (h *host) read(id string) (state, now string) {
	s, _ := os.ReadFile(filepath.Join(h.root, id, "status"))
	n, _ := os.ReadFile(filepath.Join(h.root, id, "context/now.md"))
	return strings.TrimSpace(string(s)), string(n)
}

// sync runs h's push (or pull) with every peer in order.
func (h *host) sync(push bool, spec func(*machine) string, peers ...*host) {
	h.t.Helper()
	for _, p := range peers {
		var err error
		if push {
			err = h.s.Push(spec(p.machine))
		} else {
			err = h.s.Pull(spec(p.machine))
		}
		if err != nil {
			h.t.Fatalf("%s (push %v): %v\n%s", h.s.Host, push, err, h.log)
		}
	}
}

// step is one push or pull of one spoke with its peers.
type step struct {
	h    *host
	push bool
}

func (s step) String() string {
	return s.h.s.Host + map[bool]string{true: " push", false: " pull"}[s.push]
}

// syncOrder runs steps in the k-th of their orders (mod n!).
func syncOrder(steps []step, k int) []step {
	var out []step
	for _, i := range permutation(len(steps), k) {
		out = append(out, steps[i])
	}
	return out
}

// orders is how many orders of their push/pull steps the ownership tests
// try per case: def in the suite (a spread over all of them), every one
// with ST_SYNC_ORDERS=720 (or 24 for two hosts' four steps), one in
// -short mode.
func orders(def int) int {
	if n, err := strconv.Atoi(os.Getenv("ST_SYNC_ORDERS")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 1
	}
	return def
}

// orderIndex is the i-th of n orders tried out of all (n!) of them:
// spread over all of them when n is fewer.
func orderIndex(i, n, all int) int {
	if n >= all {
		return i
	}
	return i * 7919 % all
}

// bob writes a burst of 20 on host B, then moves to host A, where his
// first own write claims him and a `dnd` follows; then the three spokes
// (A, B and C, which only watches) push and pull through a hub in the
// k-th order of their six steps, and every spoke syncs twice more. Every
// root then holds A's state, every host names A as bob's home, and B no
// longer claims him; A's own state is never reverted on the way. The
// clocks are off as given (A's 10 minutes behind, say, so that every
// copy B wrote is stamped later than any of A's): which state wins does
// not change.
func moveThroughHub(t *testing.T, spec func(*machine) string, skewA, skewB time.Duration, k int) {
	a, b, c := newHost(t, "hosta", skewA), newHost(t, "hostb", skewB), newHost(t, "hostc", 0)
	hub := newHost(t, "hub", 0)
	spokes := []*host{a, b, c}
	round := func() {
		for _, push := range []bool{true, false} {
			for _, h := range spokes {
				h.sync(push, spec, hub)
			}
		}
	}
	a.writeAs("alice", "busy", "alice at home\n")
	b.writeAs("bob", "available", "bob on B v0\n")
	c.writeAs("carol", "busy", "carol at home\n")
	round()
	for i := 1; i <= 20; i++ {
		b.writeAs("bob", []string{"busy", "away"}[i%2], fmt.Sprintf("bob on B v%d\n", i))
	}
	b.sync(true, spec, hub) // the burst reaches the hub before the move
	a.writeAs("bob", "available", "bob moved to A\n")
	a.skew += 2 * time.Second
	a.writeAs("bob", "dnd", "bob on A, heads down\n")
	wantState, wantNow := a.read("bob")
	steps := []step{{a, true}, {a, false}, {b, true}, {b, false}, {c, true}, {c, false}}
	var log []string
	for _, s := range syncOrder(steps, k) {
		s.h.sync(s.push, spec, hub)
		log = append(log, s.String())
		if st, now := a.read("bob"); st != wantState || now != wantNow {
			t.Fatalf("the new home was reverted after %s: %s %q", strings.Join(log, ", "), st, now)
		}
	}
	round()
	round()
	for _, h := range append(spokes, hub) {
		if st, now := h.read("bob"); st != wantState || now != wantNow {
			t.Errorf("%s holds bob's %s %q, want A's %s %q (order %s)", h.s.Host, st, now, wantState, wantNow, strings.Join(log, ", "))
		}
	}
	for _, h := range spokes {
		if got := h.hostOf("bob"); got != "hosta" {
			t.Errorf("%s names %q as bob's home, want hosta", h.s.Host, got)
		}
	}
	if _, claimed := fleet.Records(b.tree())["hostb"].Claims["bob"]; claimed {
		t.Errorf("hostb still claims bob: %+v", fleet.Records(b.tree())["hostb"])
	}
}

// moveClocks are the clocks the move tests run with.
var moveClocks = []struct {
	name         string
	skewA, skewB time.Duration
}{
	{"clocks agree", 0, 0},
	{"new home 10 minutes behind", -10 * time.Minute, 0},
	{"new home 10 minutes ahead", 10 * time.Minute, 0},
	{"old home 10 minutes ahead", 0, 10 * time.Minute},
}

// The move over the real sshd, with the clocks right and with A's 10
// minutes behind or ahead, or B's ahead: one order per clock in the
// suite (each takes some 25 rsync runs).
func TestSSHMoveEndsWithTheNewHomesState(t *testing.T) {
	srv := sshtest.ForTest(t)
	runMoves(t, func(m *machine) string { return srv.Spec(m.root) }, orders(1))
}

// The same over local: peers (what travels does not depend on the
// transport), quicker, so more orders run.
func TestMoveEndsWithTheNewHomesStateLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("8 moves of some 25 rsync runs each: skipped in -short mode")
	}
	runMoves(t, func(m *machine) string { return "local:" + m.root }, orders(2))
}

func runMoves(t *testing.T, spec func(*machine) string, n int) {
	for j, c := range moveClocks {
		t.Run(c.name, func(t *testing.T) {
			for i := range n {
				k := orderIndex(i+j*n, n*len(moveClocks), 720)
				moveThroughHub(t, spec, c.skewA, c.skewB, k)
				if t.Failed() {
					t.Fatalf("order %d", k)
				}
			}
		})
	}
}

// The old home pushes before it has pulled the move: bob lives on B,
// moves to A, and A pushes its claim and bob's new state to the hub; then
// B, which still claims bob and holds its own copies of his files,
// pushes. The hub keeps A's state, B's next pull brings it to B, and
// neither B nor the hub ever names A as bob's home beside B's status.
func TestSSHOldHomePushesAfterTheMove(t *testing.T) {
	srv := sshtest.ForTest(t)
	oldHomePushesAfterTheMove(t, func(m *machine) string { return srv.Spec(m.root) })
}

// The same over local: peers.
func TestOldHomePushesAfterTheMoveLocal(t *testing.T) {
	oldHomePushesAfterTheMove(t, func(m *machine) string { return "local:" + m.root })
}

func oldHomePushesAfterTheMove(t *testing.T, spec func(*machine) string) {
	a, b, hub := newHost(t, "hosta", 0), newHost(t, "hostb", 0), newHost(t, "hub", 0)
	b.writeAs("bob", "busy", "bob on B\n")
	for _, push := range []bool{true, false} { // every host learns that bob lives on B
		for _, h := range []*host{b, a} {
			h.sync(push, spec, hub)
		}
	}
	b.writeAs("bob", "away", "bob on B, later\n")
	a.writeAs("bob", "dnd", "bob moved to A\n")
	wantState, wantNow := a.read("bob")
	check := func(when string, hosts ...*host) {
		t.Helper()
		for _, h := range hosts {
			if st, now := h.read("bob"); st != wantState || now != wantNow {
				t.Errorf("after %s: %s holds bob's %s %q, want A's %s %q", when, h.s.Host, st, now, wantState, wantNow)
			}
		}
	}
	neverPaired := func(when string) {
		t.Helper()
		for _, h := range []*host{b, hub} {
			if st, now := h.read("bob"); h.hostOf("bob") == "hosta" && (st != wantState || now != wantNow) {
				t.Errorf("after %s: %s names hosta as bob's home beside %s %q", when, h.s.Host, st, now)
			}
		}
	}
	a.sync(true, spec, hub)
	b.sync(true, spec, hub)
	check("hostb's push", hub)
	neverPaired("hostb's push")
	if _, claimed := fleet.Records(b.tree())["hostb"].Claims["bob"]; claimed {
		t.Errorf("hostb still claims bob after its push: %+v", fleet.Records(b.tree())["hostb"])
	}
	b.sync(false, spec, hub)
	check("hostb's pull", hub, b)
	neverPaired("hostb's pull")
	if got := b.hostOf("bob"); got != "hosta" {
		t.Errorf("hostb names %q as bob's home after its pull, want hosta", got)
	}
	a.sync(false, spec, hub)
	check("hosta's pull", a)
}

// A rewrite of bob's now.md on a host that holds no copy of it (an old st,
// a hand edit: st itself refuses it) never reaches bob's home, in any
// order of the two hosts' pushes and pulls, hub or mesh, and bob's own
// now.md replaces it there at the next sync. Over the real sshd, a
// spread of 3 of the 24 orders per topology.
func TestSSHNoCopyRewriteNeverReachesTheHome(t *testing.T) {
	srv := sshtest.ForTest(t)
	runNoCopy(t, func(m *machine) string { return srv.Spec(m.root) }, orders(3))
}

// Over local: peers, a spread of 8 of the 24 orders per topology (all
// of them with ST_SYNC_ORDERS=24).
func TestNoCopyRewriteNeverReachesTheHomeLocal(t *testing.T) {
	runNoCopy(t, func(m *machine) string { return "local:" + m.root }, orders(8))
}

func runNoCopy(t *testing.T, spec func(*machine) string, n int) {
	for _, viaHub := range []bool{true, false} {
		t.Run(map[bool]string{true: "hub", false: "mesh"}[viaHub], func(t *testing.T) {
			for i := range n {
				k := orderIndex(i, n, 24)
				noCopyRewrite(t, spec, viaHub, k)
				if t.Failed() {
					t.Fatalf("order %d", k)
				}
			}
		})
	}
}

func noCopyRewrite(t *testing.T, spec func(*machine) string, viaHub bool, k int) {
	a, b := newHost(t, "hosta", 0), newHost(t, "hostb", 0)
	peersOf := map[*host][]*host{a: {b}, b: {a}}
	if viaHub {
		hub := newHost(t, "hub", 0)
		peersOf = map[*host][]*host{a: {hub}, b: {hub}}
	}
	b.writeAs("bob", "busy", "bob's own\n")
	if err := os.Remove(filepath.Join(b.root, "bob/context/now.md")); err != nil {
		t.Fatal(err)
	}
	for _, push := range []bool{true, false} { // A learns that bob lives on B
		for _, h := range []*host{b, a} {
			h.sync(push, spec, peersOf[h]...)
		}
	}
	b.writeAs("bob", "dnd", "bob's own, newer\n")
	tr := a.tree().Clock(func() time.Time { return time.Now().Add(time.Hour) })
	if _, err := agentctx.WriteNow(tr, "bob", []byte("written on A\n")); err != nil {
		t.Fatal(err)
	}
	steps := []step{{a, true}, {a, false}, {b, true}, {b, false}}
	var log []string
	for _, s := range syncOrder(steps, k) {
		s.h.sync(s.push, spec, peersOf[s.h]...)
		log = append(log, s.String())
		if _, now := b.read("bob"); now != "bob's own, newer\n" {
			t.Fatalf("bob's home holds now.md %q after %s", now, strings.Join(log, ", "))
		}
	}
	for _, push := range []bool{true, false} {
		for _, h := range []*host{b, a} {
			h.sync(push, spec, peersOf[h]...)
		}
	}
	if _, now := a.read("bob"); now != "bob's own, newer\n" {
		t.Errorf("hosta holds now.md %q after the next syncs, want bob's own (order %s)", now, strings.Join(log, ", "))
	}
}

// A burst of 100 rewrites and appends, then syncs through a hub: no file
// on any root, host records included, is stamped ahead of the clock.
func TestSSHBurstStampsNothingAhead(t *testing.T) {
	srv := sshtest.ForTest(t)
	spec := func(m *machine) string { return srv.Spec(m.root) }
	a, b, hub := newHost(t, "hosta", 0), newHost(t, "hostb", 0), newHost(t, "hub", 0)
	for i := range 100 {
		b.writeAs("bob", []string{"busy", "away"}[i%2], fmt.Sprintf("v%d\n", i))
	}
	for range 3 {
		for _, h := range []*host{a, b} {
			h.sync(true, spec, hub)
			h.sync(false, spec, hub)
		}
	}
	now := time.Now()
	for _, h := range []*host{a, b, hub} {
		filepath.WalkDir(h.root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if fi, err := d.Info(); err == nil && fi.ModTime().After(now) {
				t.Errorf("%s: %s stamped %v, ahead of the clock (%v)", h.s.Host, p, fi.ModTime(), now)
			}
			return nil
		})
	}
	if _, got := a.read("bob"); got != "v99\n" {
		t.Errorf("hosta holds bob's now.md %q, want the last of the burst", got)
	}
}

// A host whose root is wiped and rebuilt (a new disk) is seen syncing by
// its peers at its next sync: its fresh record replaces the one they
// hold, however many records it wrote before.
func TestSSHRebuiltHostIsSeenSyncing(t *testing.T) {
	srv := sshtest.ForTest(t)
	spec := func(m *machine) string { return srv.Spec(m.root) }
	a, b, hub := newHost(t, "hosta", 0), newHost(t, "hostb", 0), newHost(t, "hub", 0)
	a.writeAs("alice", "busy", "alice\n")
	b.writeAs("bob", "busy", "bob\n")
	for range 3 {
		for _, h := range []*host{a, b} {
			h.sync(true, spec, hub)
			h.sync(false, spec, hub)
		}
	}
	before := fleet.Records(b.tree())["hosta"].At
	if err := os.RemoveAll(a.root); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(a.root, 0o777); err != nil {
		t.Fatal(err)
	}
	a.skew = -time.Second // the rebuilt host's clock may even run a little behind its old records
	time.Sleep(10 * time.Millisecond)
	start := a.now().UnixMilli()
	a.sync(true, spec, hub)
	a.sync(false, spec, hub)
	b.sync(false, spec, hub)
	got := fleet.Records(b.tree())["hosta"]
	if got.At < start {
		t.Errorf("hostb holds hosta's record of %d (before the wipe: %d), want the rebuilt host's, from %d on", got.At, before, start)
	}
	if h, _ := b.fleet(time.Now()).AgentHost("alice"); h.Name != "hosta" {
		t.Errorf("hostb: alice on %+v, want hosta", h)
	}
}

// Two hosts claiming one agent at once (bob writes on both before either
// syncs) end with one home on every host, the same one, and the other
// host named beside it (what st agents and the doctor report); the
// loser stops claiming until bob writes there again.
func TestDoubleClaimEndsWithOneHome(t *testing.T) {
	spec := func(m *machine) string { return "local:" + m.root }
	a, b, hub := newHost(t, "hosta", 0), newHost(t, "hostb", -10*time.Minute), newHost(t, "hub", 0)
	a.writeAs("bob", "busy", "bob on A\n")
	b.writeAs("bob", "dnd", "bob on B\n")
	for range 2 {
		for _, push := range []bool{true, false} {
			for _, h := range []*host{b, a} {
				h.sync(push, spec, hub)
			}
		}
	}
	for _, h := range []*host{a, b} {
		f := h.fleet(time.Now())
		if home, _ := f.AgentHost("bob"); home.Name != "hosta" {
			t.Errorf("%s names %q as bob's home, want hosta (the first name of two equal claims)", h.s.Host, home.Name)
		}
		if got := f.OtherClaims("bob"); len(got) != 1 || got[0] != "hostb" {
			t.Errorf("%s: other claims of bob %v, want hostb", h.s.Host, got)
		}
		if st, _ := h.read("bob"); st != "busy" {
			t.Errorf("%s holds bob's status %q, want the home's busy", h.s.Host, st)
		}
	}
	if _, claimed := fleet.Records(b.tree())["hostb"].Claims["bob"]; claimed {
		t.Error("hostb still claims bob")
	}
}
