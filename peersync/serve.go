package peersync

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/watch"
)

// ServeOptions tune Serve.
type ServeOptions struct {
	Verb     string        // "" push and pull, "push" or "pull", as --all
	Interval time.Duration // between full rounds, before jitter
	// Settle gathers a burst of messages delivered here (one sent to
	// several agents) into one copy. A message is whole once it has its
	// name (st links it from a finished temp file), so it is short.
	Settle time.Duration
	// Watch is the st command that serve runs on each ssh peer it pulls
	// from, over one long-lived connection, to hear of the messages that
	// reach the peer (`st sync watch`, arrivals.go): a message for an
	// agent of this host is then pulled at once instead of at the next
	// round. Empty: no connections; messages wait for the rounds, as
	// they do from a peer where st is not installed.
	Watch string
}

// Serve tuning: the jitter spreads hosts started together, the backoff
// cap keeps a dead peer tried every few minutes, not every round.
const (
	DefaultServeInterval = 5 * time.Second
	DefaultServeSettle   = 50 * time.Millisecond
	serveJitter          = 0.2 // ± this fraction of the interval
	maxBackoff           = 5 * time.Minute
)

// Serve syncs with every peer of peers.yaml until ctx ends: a full round
// (o.Verb, as --all) every interval with jitter, and, unless it only
// pulls, each message delivered here copied to every peer by name as
// soon as it settles (copyMessages), so a message reaches a peer in
// well under a second rather than a whole interval later. Every other
// local change (a status, a context, an archive move, an event log
// line) travels with the next round: those come in bursts, and pushing
// each at once kept a busy host's transfers queued behind one another,
// messages among them. A failing peer is retried after an interval that
// doubles with each failure (up to maxBackoff) while the others go on.
// peers.yaml is read again every round. It returns nil when ctx ends.
//
// Messages are seen through fsnotify on the root, every agent folder
// and its inbox/ (agents that appear are added, with the messages
// already in their inbox); the rounds are the backstop for anything the
// watch misses. What rsync writes (a peer's
// push, this host's own pull) is not a local change (localChanges), so
// a mesh does not echo every message back out.
func (s *Syncer) Serve(ctx context.Context, o ServeOptions) error {
	if o.Interval <= 0 {
		o.Interval = DefaultServeInterval
	}
	if o.Settle <= 0 {
		o.Settle = DefaultServeSettle
	}
	if _, err := readPeers(s.ConfigDir); err != nil {
		return err
	}
	ss := *s
	ss.Ctx = ctx
	// The arrival watches and the message lanes write to them too.
	ss.Log = &lockedWriter{w: s.Log}
	if s.Stdout != nil {
		ss.Stdout = &lockedWriter{w: s.Stdout}
	}
	b := &backoff{interval: o.Interval, state: map[string]*peerState{}}
	var lanes sync.WaitGroup
	var arrivals *arrivalWatches
	whole := &peerQueue{wake: make(chan struct{}, 1)}
	if o.Watch != "" && o.Verb != "push" {
		mux := newSSHMux(s.RSH)
		defer mux.close()
		arrivals = ss.newArrivalWatches(o.Watch, mux.master(s.RSH))
		defer arrivals.close()
		ss.RSH = mux.client(s.RSH)
		lanes.Go(func() { ss.receiveMessages(ctx, arrivals, b, whole) })
	}
	if o.Verb != "pull" {
		lanes.Go(func() { ss.sendMessages(ctx, o.Settle, b) })
	}
	defer lanes.Wait() // ctx has ended: so do the lanes, before the watches close

	round := time.NewTimer(0) // a first round at once
	defer round.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-whole.wake:
			ss.runPeers(ctx, "pull", whole.take(), b)
		case <-round.C:
			// Rounds start an interval apart, however long each takes
			// (a round longer than the interval is followed at once).
			start := time.Now()
			ss.serveRound(ctx, o.Verb, b, arrivals)
			round.Reset(max(0, jitter(o.Interval)-time.Since(start)))
		}
	}
}

// Serve's message lanes move single messages beside its loop, so that a
// message never waits for a round (a whole push and pull, seconds on a
// busy host) to end, nor for a message going the other way: one copies
// the messages delivered here to the peers (sendMessages), the other
// pulls those the arrival watches report (receiveMessages). Copies by
// name touch only inbox files, which are written once, with
// --ignore-existing, so they can overlap a round; a whole pull cannot
// (two would share the copies a pull puts aside for settle), so the
// peers whose watch asks for one go to whole, which serve's loop runs
// between rounds.

// sendMessages watches the root for the messages delivered here and
// copies them to the peers once they have settled.
func (s *Syncer) sendMessages(ctx context.Context, settleFor time.Duration, b *backoff) {
	changes := newLocalChanges(s.Root)
	w := watch.NewFiltered(0, changes.wakes)
	defer func() { _ = w.Close() }() // stopping to watch: nothing left to report to
	s.watchRoot(w, changes)
	var settle <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.Wake():
			s.watchRoot(w, changes)
			if settle == nil {
				settle = time.After(settleFor)
			}
		case <-settle:
			settle = nil
			if rels := changes.take(); len(rels) > 0 {
				s.pushMessages(ctx, rels, b)
			}
		}
	}
}

// receiveMessages pulls what the arrival watches report, until ctx ends.
func (s *Syncer) receiveMessages(ctx context.Context, arrivals *arrivalWatches, b *backoff, whole *peerQueue) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-arrivals.wake:
			s.pullArrivals(ctx, arrivals, b, whole)
		}
	}
}

// peerQueue is the peers waiting for a whole pull, each once.
type peerQueue struct {
	mu    sync.Mutex
	peers []Peer
	wake  chan struct{}
}

func (q *peerQueue) add(p Peer) {
	q.mu.Lock()
	if !slices.Contains(q.peers, p) {
		q.peers = append(q.peers, p)
	}
	q.mu.Unlock()
	wake(q.wake)
}

func (q *peerQueue) take() []Peer {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.peers
	q.peers = nil
	return out
}

// wake wakes whoever waits on c, once however often it is called.
func wake(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// serveRound runs one round against the peers not backing off, and
// records who failed; it also keeps the arrival watches (nil: none) in
// step with peers.yaml. Its errors are in the log: a round never ends
// serve.
func (s *Syncer) serveRound(ctx context.Context, verb string, b *backoff, arrivals *arrivalWatches) {
	peers, ok := s.servePeers()
	if !ok {
		return
	}
	if arrivals != nil {
		arrivals.update(ctx, s.ConfigDir, peers)
	}
	rs := *s
	rs.Yield = true // the messages' own copies go first
	rs.runPeers(ctx, verb, b.dueOf(peers, time.Now()), b)
}

// pushMessages copies the messages delivered here (root-relative paths)
// to every peer not backing off.
func (s *Syncer) pushMessages(ctx context.Context, rels []string, b *backoff) {
	peers, ok := s.servePeers()
	if !ok {
		return
	}
	due := b.dueOf(peers, time.Now())
	s.runEach(ctx, due, b, func(ps *Syncer, i int) bool { return ps.copyMessages("push", due[i], rels) })
}

// servePeers reads peers.yaml and checks its specs; a failure is logged,
// as serve goes on.
func (s *Syncer) servePeers() ([]Peer, bool) {
	peers, err := readPeers(s.ConfigDir)
	if err == nil {
		err = s.checkSpecs(peers)
	}
	if err != nil {
		fmt.Fprintf(s.Log, "# sync serve: %v\n", err)
		return nil, false
	}
	return peers, true
}

// runPeers runs verb against peers and records who failed.
func (s *Syncer) runPeers(ctx context.Context, verb string, due []Peer, b *backoff) {
	s.runEach(ctx, due, b, func(ps *Syncer, i int) bool { return ps.onePeer(verb, due[i]) })
}

// runEach runs run for each peer (fanoutEach) and records who failed.
func (s *Syncer) runEach(ctx context.Context, due []Peer, b *backoff, run func(ps *Syncer, i int) (failed bool)) {
	if len(due) == 0 {
		return
	}
	failed := s.fanoutEach(due, true, run)
	if ctx.Err() != nil {
		return // stopping: the failures are the stop's
	}
	for i, p := range due {
		if failed[i] {
			wait := b.fail(p.Name, time.Now())
			fmt.Fprintf(s.Log, "# sync serve: peer %s failed; next try in %v\n", p.Name, wait.Round(time.Second))
		} else if b.ok(p.Name) {
			fmt.Fprintf(s.Log, "# sync serve: peer %s is back\n", p.Name)
		}
	}
}

// watchRoot watches the root, its agent folders and their inbox/ (Watch
// skips what it already watches and what is missing).
// The messages in an inbox watched for the first time since serve
// started (a message to an agent new here made the folder) are noted
// as local changes: they may have been delivered before the watch.
func (s *Syncer) watchRoot(w *watch.Watcher, changes *localChanges) {
	dirs := []string{s.Root}
	var fresh []string
	entries, _ := os.ReadDir(s.Root)
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		a := filepath.Join(s.Root, e.Name())
		dirs = append(dirs, a, filepath.Join(a, "inbox"))
		if !changes.inboxes[e.Name()] {
			fresh = append(fresh, e.Name())
		}
	}
	w.Watch(dirs...)
	first := changes.inboxes == nil
	if first {
		changes.inboxes = map[string]bool{}
	}
	for _, agent := range fresh {
		names, err := os.ReadDir(filepath.Join(s.Root, agent, "inbox"))
		if err != nil {
			continue // no inbox yet: looked at again on the next wake
		}
		changes.inboxes[agent] = true
		if first {
			continue // what was there before serve: the first round's
		}
		for _, n := range names {
			if message.IsCanonical(n.Name()) {
				changes.note(agent + "/inbox/" + n.Name())
			}
		}
	}
}

// localChanges is serve's watch filter and what it noted: the messages
// delivered here, for serve to copy at once, told apart from those
// rsync brought. rsync writes each file as ".<name>.XXXXXX" and renames
// it to <name>; st links a message to its name from a temp file named
// otherwise (".st-*.tmp"). So the arrival of the name an rsync temp
// file was renamed to is rsync's; removals and renames away (sweeps,
// archive moves) and attribute changes are no delivery. It also wakes
// serve for a folder created in the root or an agent folder (a new
// agent, its inbox), to watch it.
type localChanges struct {
	root     string
	incoming map[string]bool // the watch's goroutine only
	inboxes  map[string]bool // agents whose inbox is watched; sendMessages only

	mu       sync.Mutex
	messages map[string]bool // root-relative "<agent>/inbox/<name>"
}

func newLocalChanges(root string) *localChanges {
	return &localChanges{root: root, incoming: map[string]bool{}, messages: map[string]bool{}}
}

// wakes is the watch filter: it notes a message delivered here and
// reports whether serve has anything to do.
func (c *localChanges) wakes(ev fsnotify.Event) bool {
	dir, base := filepath.Split(ev.Name)
	if name, ok := rsyncTempOf(base); ok {
		if ev.Has(fsnotify.Rename) {
			if len(c.incoming) > 10000 {
				clear(c.incoming) // renames whose arrival was never seen
			}
			c.incoming[filepath.Join(dir, name)] = true
		}
		return false
	}
	if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Write) {
		return false
	}
	if c.incoming[ev.Name] {
		delete(c.incoming, ev.Name)
		return false
	}
	rel, err := filepath.Rel(c.root, ev.Name)
	if err != nil {
		return false
	}
	switch parts := strings.Split(filepath.ToSlash(rel), "/"); {
	case len(parts) == 1, len(parts) == 2 && parts[1] == "inbox":
		return !strings.HasPrefix(parts[0], ".") // a new agent folder or inbox, to watch
	case len(parts) == 3 && parts[1] == "inbox" && layout.ValidAgent(parts[0]) && message.IsCanonical(base):
		c.note(filepath.ToSlash(rel))
		return true
	}
	return false
}

func (c *localChanges) note(rel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.messages[rel] = true
}

// take returns the messages noted since the last take, sorted.
func (c *localChanges) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Sorted(maps.Keys(c.messages))
	clear(c.messages)
	return out
}

// rsyncTempOf returns the name an rsync temp file ".<name>.XXXXXX" is
// written for.
func rsyncTempOf(base string) (string, bool) {
	n := len(base)
	if n < 9 || base[0] != '.' || base[n-7] != '.' {
		return "", false
	}
	for _, c := range base[n-6:] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return "", false
		}
	}
	return base[1 : n-7], true
}

// backoff tracks each peer's consecutive failures and when it is due;
// serve's loop and its message lanes share it.
type backoff struct {
	interval time.Duration
	mu       sync.Mutex
	state    map[string]*peerState
}

type peerState struct {
	failures int
	next     time.Time
}

// dueOf returns the peers not backing off.
func (b *backoff) dueOf(peers []Peer, now time.Time) []Peer {
	var due []Peer
	for _, p := range peers {
		if b.due(p.Name, now) {
			due = append(due, p)
		}
	}
	return due
}

func (b *backoff) due(name string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.state[name]
	return st == nil || !now.Before(st.next)
}

// fail records a failure and returns how long the peer now waits: the
// interval doubled per consecutive failure, capped, with jitter.
func (b *backoff) fail(name string, now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.state[name]
	if st == nil {
		st = &peerState{}
		b.state[name] = st
	}
	st.failures++
	wait := b.interval
	for range st.failures {
		wait *= 2
		if wait >= maxBackoff {
			wait = maxBackoff
			break
		}
	}
	wait = jitter(wait)
	st.next = now.Add(wait)
	return wait
}

// ok records a success; it reports whether the peer had been failing.
func (b *backoff) ok(name string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, was := b.state[name]
	delete(b.state, name)
	return was
}

// jitter returns d moved by up to ±serveJitter of itself, so hosts
// started together do not stay in step.
func jitter(d time.Duration) time.Duration {
	f := 1 + serveJitter*(2*rand.Float64()-1)
	return time.Duration(float64(d) * f)
}

// Lock keeps two syncs of one root from running at once (cron starting
// a sync while the last one still runs, serve and a cron job): it waits
// up to wait for the other to finish, then refuses. A root that does not
// exist yet has nothing to protect. The lock lives outside the root
// (fsutil.Lock), so it is never synced.
func (s *Syncer) Lock(ctx context.Context, wait time.Duration) (unlock func(), err error) {
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return func() {}, nil
	}
	defer t.Close()
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	unlock, err = t.Lock(ctx, "sync")
	if err != nil {
		return nil, sterr.New(sterr.SyncFailed,
			fmt.Sprintf("another st sync is running on %s (waited %v for it); this one did nothing", s.Root, wait),
			map[string]any{"path": s.Root, "reason": "sync already running"})
	}
	return unlock, nil
}
