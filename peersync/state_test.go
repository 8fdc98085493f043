package peersync

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/status"
)

// A small fleet for the state tests: hosts, each the home of one agent,
// and the peers each syncs with (the hub, or every other host).
type stateFleet struct {
	t     testing.TB
	hosts []*machine
	home  []string // agent living on hosts[i]
	hub   *machine // nil for a mesh
	spec  func(*machine) string
	log   []string            // what ran, for failure messages
	wrote []map[string]string // per agent: file -> its newest write
	seq   []int               // per agent: writes so far
	seen  map[string]int      // "<host>/<agent>/<file>" -> newest version seen there
	// Reversions counts every time a host held an older version of a
	// file than it held before, or a home host not its own newest write.
	Reversions int
}

var stateStates = []string{"available", "busy", "away", "dnd"}

func newStateFleet(t testing.TB, n int, hub bool, spec func(*machine) string) *stateFleet {
	tt, ok := t.(*testing.T)
	if !ok {
		t.Fatal("stateFleet wants a *testing.T")
	}
	f := &stateFleet{t: t, spec: spec, seen: map[string]int{}}
	names := []string{"alice", "bob", "carol", "dave", "erin"}
	for i := range n {
		m := newMachine(tt, tt.TempDir())
		m.s.Host = fmt.Sprintf("host%c", 'a'+i)
		f.hosts = append(f.hosts, m)
		f.home = append(f.home, names[i])
		f.wrote = append(f.wrote, map[string]string{})
		f.seq = append(f.seq, 0)
	}
	if hub {
		f.hub = newMachine(tt, tt.TempDir())
		f.hub.s.Host = "hub"
	}
	// Every agent writes once at home and the fleet converges, so each
	// host knows where everyone lives before the interleavings start.
	for i := range f.hosts {
		f.write(i)
	}
	f.converge()
	return f
}

// write makes hosts[i]'s agent write its status, now.md, a decision
// and an event line at home, as st status --set, st context write and
// append, and its hooks do.
func (f *stateFleet) write(i int) {
	f.t.Helper()
	m, id := f.hosts[i], f.home[i]
	f.seq[i]++
	v := f.seq[i]
	tr := m.tree()
	st := stateStates[v%len(stateStates)]
	now := fmt.Sprintf("%s v%d\n", id, v)
	tr.MkdirAll(id + "/context")
	tr.MkdirAll(id + "/events")
	if err := status.Set(tr, id, st); err != nil {
		f.t.Fatal(err)
	}
	if _, err := agentctx.WriteNow(tr, id, []byte(now)); err != nil {
		f.t.Fatal(err)
	}
	if _, err := agentctx.Append(tr, id, fmt.Sprintf("%s decision %d", id, v), "testing", time.Now()); err != nil {
		f.t.Fatal(err)
	}
	if err := tr.AppendLine(context.Background(), id+"/events/s1.jsonl", []byte(fmt.Sprintf(`{"v":%d}`+"\n", v))); err != nil {
		f.t.Fatal(err)
	}
	m.wrote(id)
	status, _ := os.ReadFile(filepath.Join(m.root, id, "status"))
	f.wrote[i] = map[string]string{"status": string(status), "context/now.md": now}
	f.log = append(f.log, fmt.Sprintf("%s writes v%d", m.s.Host, v))
	f.check()
}

// peers are the roots hosts[i] syncs with.
func (f *stateFleet) peers(i int) []*machine {
	if f.hub != nil {
		return []*machine{f.hub}
	}
	var out []*machine
	for j, m := range f.hosts {
		if j != i {
			out = append(out, m)
		}
	}
	return out
}

// op runs host i's push (or pull) with each of its peers, then checks.
func (f *stateFleet) op(i int, push bool) {
	f.t.Helper()
	m := f.hosts[i]
	verb := "pulls"
	if push {
		verb = "pushes"
	}
	for _, p := range f.peers(i) {
		var err error
		if push {
			err = m.s.Push(f.spec(p))
		} else {
			err = m.s.Pull(f.spec(p))
		}
		if err != nil {
			f.t.Fatalf("%s %s: %v\n%s", m.s.Host, verb, err, m.log)
		}
	}
	f.log = append(f.log, m.s.Host+" "+verb)
	f.check()
}

// converge: every host pushes, then every host pulls.
func (f *stateFleet) converge() {
	for i := range f.hosts {
		f.op(i, true)
	}
	for i := range f.hosts {
		f.op(i, false)
	}
}

// versionOf reads the version number in a now.md ("bob v7"), 0 if none.
func versionOf(data []byte) int {
	_, v, _ := strings.Cut(strings.TrimSpace(string(data)), " v")
	n, _ := strconv.Atoi(v)
	return n
}

// check looks at every agent's files on every root: a home host holds
// exactly its newest write; no root ever holds an older now.md, a
// shorter event log or fewer decisions than it held before.
func (f *stateFleet) check() {
	f.t.Helper()
	roots := slices.Clone(f.hosts)
	if f.hub != nil {
		roots = append(roots, f.hub)
	}
	for _, m := range roots {
		for i, id := range f.home {
			if m == f.hosts[i] {
				for rel, want := range f.wrote[i] {
					got, _ := os.ReadFile(filepath.Join(m.root, id, rel))
					if string(got) != want {
						f.Reversions++
						f.t.Errorf("%s reverted its own %s/%s: %q, wrote %q\n%s", m.s.Host, id, rel, got, want, strings.Join(f.log, "; "))
					}
				}
			}
			now, _ := os.ReadFile(filepath.Join(m.root, id, "context/now.md"))
			events, _ := os.ReadFile(filepath.Join(m.root, id, "events/s1.jsonl"))
			decisions, _ := os.ReadDir(filepath.Join(m.root, id, "context/decisions"))
			for what, v := range map[string]int{"now.md": versionOf(now), "event log": strings.Count(string(events), "\n"), "decisions": len(decisions)} {
				key := m.s.Host + "/" + id + "/" + what
				if v < f.seen[key] {
					f.Reversions++
					f.t.Errorf("%s went back on %s's %s: %d after %d\n%s", m.s.Host, id, what, v, f.seen[key], strings.Join(f.log, "; "))
				}
				f.seen[key] = max(f.seen[key], v)
			}
		}
	}
}

// converged checks every root holds each agent's newest write.
func (f *stateFleet) converged() {
	f.t.Helper()
	roots := slices.Clone(f.hosts)
	if f.hub != nil {
		roots = append(roots, f.hub)
	}
	for _, m := range roots {
		for i, id := range f.home {
			for rel, want := range f.wrote[i] {
				if got, _ := os.ReadFile(filepath.Join(m.root, id, rel)); string(got) != want {
					f.t.Errorf("%s holds %s/%s %q, the newest write is %q\n%s", m.s.Host, id, rel, got, want, strings.Join(f.log, "; "))
				}
			}
			decisions, _ := os.ReadDir(filepath.Join(m.root, id, "context/decisions"))
			if len(decisions) != f.seq[i] {
				f.t.Errorf("%s holds %d of %s's %d decisions", m.s.Host, len(decisions), id, f.seq[i])
			}
		}
	}
}

// The order that reverted a home host before: B writes, B pushes, A
// pushes its older copy, B pulls. Hub and mesh, local peers.
func TestHomeHostIsNeverReverted(t *testing.T) {
	local := func(m *machine) string { return "local:" + m.root }
	for _, hub := range []bool{true, false} {
		t.Run(map[bool]string{true: "hub", false: "mesh"}[hub], func(t *testing.T) {
			f := newStateFleet(t, 2, hub, local)
			a, b := 0, 1
			f.write(b)
			f.op(b, true)
			f.op(a, true)
			f.op(b, false)
			f.write(b)
			f.write(b) // twice in a row, within one tick of the file clock
			f.op(b, true)
			f.op(a, true)
			f.op(a, false)
			f.op(b, false)
			f.converge()
			f.converged()
		})
	}
}

// permutation returns the k-th (mod n!) ordering of 0..n-1.
func permutation(n, k int) []int {
	items := make([]int, n)
	fact := 1
	for i := range n {
		items[i] = i
		fact *= i + 1
	}
	k %= fact
	out := make([]int, 0, n)
	for i := n; i > 0; i-- {
		fact /= i
		j := k / fact
		k %= fact
		out = append(out, items[j])
		items = slices.Delete(items, j, j+1)
	}
	return out
}

// stateRounds is how many interleavings TestSSHStateInterleavings runs
// per topology: a few in the suite, every one of the 720 orders of the
// six push/pull steps from scripts/syncfaults (ST_STATE_ROUNDS); one in
// -short mode.
func stateRounds() int {
	if n, err := strconv.Atoi(os.Getenv("ST_STATE_ROUNDS")); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 1
	}
	return 2
}

// runInterleavings: round k runs the k-th order of the six steps (each
// of three hosts pushes and pulls), with every agent writing at home
// before a random step; after every step nothing is reverted, and after
// the round's converging syncs every root holds the newest writes.
func runInterleavings(t *testing.T, hub bool, spec func(*machine) string, rounds int) int {
	f := newStateFleet(t, 3, hub, spec)
	for k := range rounds {
		order := permutation(6, k*7919) // spread over the 720 orders
		if rounds >= 720 {
			order = permutation(6, k)
		}
		at := [3]int{rand.IntN(7), rand.IntN(7), rand.IntN(7)}
		for step := 0; step <= len(order); step++ {
			for i := range 3 {
				if at[i] == step {
					f.write(i)
				}
			}
			if step < len(order) {
				f.op(order[step]/2, order[step]%2 == 0)
			}
		}
		f.converge()
		f.converged()
		if t.Failed() {
			t.Fatalf("round %d, order %v", k, order)
		}
		f.log = f.log[:0]
	}
	return f.Reversions
}

// Three hosts over the real sshd, hub and mesh: every agent's status,
// now.md, decisions and event log, written at home while every host
// pushes and pulls in every order, end as the newest write everywhere
// and are never reverted anywhere.
func TestSSHStateInterleavings(t *testing.T) {
	srv := sshtest.ForTest(t)
	spec := func(m *machine) string { return srv.Spec(m.root) }
	for _, hub := range []bool{true, false} {
		name := map[bool]string{true: "hub", false: "mesh"}[hub]
		t.Run(name, func(t *testing.T) {
			n := runInterleavings(t, hub, spec, stateRounds())
			t.Logf("result: %s, 3 hosts, %d interleavings of 6 push/pull steps around writes of status, now.md, a decision and an event line: %d reversions", name, stateRounds(), n)
		})
	}
}

// The same interleavings over local: peers (the state model does not
// depend on the transport), quicker, so scripts/syncfaults can run all
// 720 orders.
func TestStateInterleavingsLocal(t *testing.T) {
	spec := func(m *machine) string { return "local:" + m.root }
	for _, hub := range []bool{true, false} {
		name := map[bool]string{true: "hub", false: "mesh"}[hub]
		t.Run(name, func(t *testing.T) {
			n := runInterleavings(t, hub, spec, stateRounds())
			t.Logf("result: %s over local peers, 3 hosts, %d interleavings of 6 push/pull steps around writes of status, now.md, a decision and an event line: %d reversions", name, stateRounds(), n)
		})
	}
}
