package peersync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/smalltalk-go/st/internal/sterr"
)

// parallelPeers is how many peers --all syncs at once: enough that one
// slow or stuck peer does not hold up the others, few enough that a
// large peers.yaml does not start dozens of ssh sessions at a time.
const parallelPeers = 4

// All runs verb ("push", "pull", or "" for push then pull) against every
// entry of peers.yaml. Peers run in parallel (parallelPeers at a time),
// each under its own deadline; each peer's lines are gathered and
// printed together, in file order. A failing peer does not stop the
// others; a line names it by its peers.yaml name and why, and the error
// names every failed peer, each once, in order.
//
// A spec that looks like an option refuses the whole run before anything
// is copied or created: it is a mistake in peers.yaml, not a peer down.
func (s *Syncer) All(verb string) error {
	peers, err := readPeers(s.ConfigDir)
	if err != nil {
		return err
	}
	if err := s.checkSpecs(peers); err != nil {
		return err
	}
	return failedError(peers, s.fanout(verb, peers, false))
}

// checkSpecs refuses the first peer whose spec, or an alias it leads to,
// looks like an option.
func (s *Syncer) checkSpecs(peers []Peer) error {
	for _, p := range peers {
		_, err := ResolvePeer(p.Spec, s.ConfigDir, func(string) error { return nil })
		var e *sterr.Error
		if errors.As(err, &e) && e.Details["reason"] == reasonOptionLike {
			return sterr.New(e.Code, "peers.yaml: "+p.Name+": "+e.Message, e.Details)
		}
	}
	return nil
}

// fanout runs verb against peers and reports which failed. quiet keeps
// the lines of peers that succeeded out of the log (serve).
func (s *Syncer) fanout(verb string, peers []Peer, quiet bool) (failed []bool) {
	return s.fanoutEach(peers, quiet, func(ps *Syncer, i int) bool { return ps.onePeer(verb, peers[i]) })
}

// fanoutEach runs run for each peer, parallelPeers at a time, each with
// a Syncer of its own (withPeer), and reports which failed.
func (s *Syncer) fanoutEach(peers []Peer, quiet bool, run func(ps *Syncer, i int) (failed bool)) (failed []bool) {
	failed = make([]bool, len(peers))
	logs := make([]bytes.Buffer, len(peers))
	outs := make([]bytes.Buffer, len(peers))
	done := make([]chan struct{}, len(peers))
	slots := make(chan struct{}, parallelPeers)
	gate := &sync.Mutex{}
	for i := range peers {
		done[i] = make(chan struct{})
		go func() {
			defer close(done[i])
			slots <- struct{}{}
			defer func() { <-slots }()
			gate.Lock()
			defer gate.Unlock()
			failed[i] = s.withPeer(peers[i], &logs[i], &outs[i], gate, func(ps *Syncer) bool { return run(ps, i) })
		}()
	}
	for i := range peers {
		<-done[i]
		if s.Stdout != nil {
			_, _ = s.Stdout.Write(outs[i].Bytes()) // our own output: nowhere better to report it
		}
		if !quiet || failed[i] {
			_, _ = s.Log.Write(logs[i].Bytes()) // our own log: nowhere better to report it
		}
	}
	return failed
}

// withPeer runs run with a Syncer for peer p: its own log and stdout,
// and a context that ends at the peer's deadline.
func (s *Syncer) withPeer(p Peer, log, out *bytes.Buffer, gate *sync.Mutex, run func(ps *Syncer) bool) bool {
	parent := s.Ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, s.deadline())
	defer cancel()
	ps := *s
	ps.Log, ps.Stdout, ps.Ctx, ps.gate = log, &lockedWriter{w: out}, ctx, gate
	ps.Peer = p.Name
	return run(&ps)
}

// onePeer syncs one peer (withPeer gives the Syncer its log, stdout and
// deadline) and reports whether it failed.
func (s *Syncer) onePeer(verb string, p Peer) (failed bool) {
	// rsync's stderr already says why; this line says which peer.
	fail := func(stage string) {
		failed = true
		fmt.Fprintf(s.Log, "# peer %s: %s failed\n", p.Name, stage)
	}
	switch verb {
	case "":
		fmt.Fprintf(s.Log, "# === peer: %s ===\n", p.Spec)
		theirs, err := s.push(p.Spec)
		if err != nil {
			fail("push")
		}
		if s.Ctx.Err() != nil {
			// The deadline is spent (or the run is stopping): a pull
			// could not even start.
			theirs.remove()
			fmt.Fprintf(s.Log, "# peer %s: pull skipped\n", p.Name)
			return true
		}
		if s.pull(p.Spec, theirs) != nil { // the records the push read first
			fail("pull")
		}
	case "push":
		fmt.Fprintf(s.Log, "# === push peer: %s ===\n", p.Spec)
		if s.Push(p.Spec) != nil {
			fail("push")
		}
	default:
		fmt.Fprintf(s.Log, "# === pull peer: %s ===\n", p.Spec)
		if s.Pull(p.Spec) != nil {
			fail("pull")
		}
	}
	return failed
}

// failedError names the failed peers by their peers.yaml names, each
// once, in file order; nil when none failed.
func failedError(peers []Peer, failed []bool) error {
	var names []string
	for i, p := range peers {
		if failed[i] && !contains(names, p.Name) {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return sterr.Msg("sync failed for %d %s: %s", len(names), plural(len(names), "peer", "peers"), strings.Join(names, ", "))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lockedWriter serialises writes: a peer's push and its sweeps share one
// buffer, and rsync's output is copied in by its own goroutine; serve's
// log is written by its loop and its arrival watches.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
