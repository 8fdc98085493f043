package peersync

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
)

// How serve keeps its connections to the peers' `st sync watch`: one
// that ends is made again after watchRetry, doubled with each failure in
// a row up to maxBackoff; one that held for watchStable counts as a
// success. A peer without st is asked again every maxBackoff, in case st
// has been installed since. A connection silent for watchIdle (no line,
// not even the ping) is given up as dead; one whose output ended is
// given watchExit to exit.
const (
	watchRetry   = time.Second
	watchStable  = time.Minute
	watchIdle    = 3 * arrivalsPing
	watchPending = 1000 // arrivals held per peer before serve just pulls
	watchLine    = 4096 // the longest line read from a peer
	watchExit    = 10 * time.Second
)

// arrivalWatches are serve's connections to its peers' `st sync watch`,
// one per ssh peer it pulls from. Each notes the arrivals its peer
// reports and wakes serve, which pulls from that peer when one of them
// is for an agent of this host that it does not hold yet.
type arrivalWatches struct {
	command string    // the st command to run on a peer
	rsh     []string  // the remote shell and its options
	log     io.Writer // serve's log (locked: every watch writes to it)
	wake    chan struct{}

	mu     sync.Mutex               // serve's loop updates, its receiving lane reads
	byPeer map[string]*arrivalWatch // by peers.yaml name and resolved target
}

// arrivalWatch is one connection, made again whenever it ends.
type arrivalWatch struct {
	peer       Peer
	user, host string
	path       string // the store root on the peer, as rsync names it
	stop       context.CancelFunc
	done       chan struct{}
	state      watchState // what the log last said; run's goroutine only

	mu      sync.Mutex
	pending map[arrival]bool
	all     bool // pull whatever was reported: a (re)connection, too many arrivals
}

// newArrivalWatches prepares the watches of a Syncer; command is the st
// command peers run, remoteShell the command that reaches them.
func (s *Syncer) newArrivalWatches(command, remoteShell string) *arrivalWatches {
	rsh, ok := boundedRSH(remoteShell, true)
	if !ok {
		rsh = remoteShell
	}
	words := shellWords(rsh)
	if len(words) == 0 {
		words = []string{"ssh"}
	}
	return &arrivalWatches{command: command, rsh: words, log: s.Log, wake: make(chan struct{}, 1), byPeer: map[string]*arrivalWatch{}}
}

// update starts a watch for each ssh peer not watched yet and stops the
// watches of peers no longer listed.
func (ws *arrivalWatches) update(ctx context.Context, configDir string, peers []Peer) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	keep := map[string]bool{}
	for _, p := range peers {
		target, err := ResolvePeer(p.Spec, configDir, func(string) error { return nil })
		if err != nil || isLocal(p.Spec) {
			continue
		}
		user, host, path, ok := splitRemote(target)
		if !ok {
			continue
		}
		key := p.Name + "\x00" + target
		keep[key] = true
		if ws.byPeer[key] != nil {
			continue
		}
		wctx, stop := context.WithCancel(ctx)
		w := &arrivalWatch{peer: p, user: user, host: host, path: path, stop: stop, done: make(chan struct{}), pending: map[arrival]bool{}}
		ws.byPeer[key] = w
		go w.run(wctx, ws)
	}
	for key, w := range ws.byPeer {
		if !keep[key] {
			w.stop()
			delete(ws.byPeer, key)
		}
	}
}

// close stops every watch and waits for them.
func (ws *arrivalWatches) close() {
	all := ws.watches()
	for _, w := range all {
		w.stop()
	}
	for _, w := range all {
		<-w.done
	}
}

// watches returns the current watches.
func (ws *arrivalWatches) watches() []*arrivalWatch {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return slices.Collect(maps.Values(ws.byPeer))
}

// watchState is what a watch last told the log, so it speaks on changes
// only.
type watchState int

const (
	watchUnknown watchState = iota
	watchUp
	watchDown
	watchNoST
)

// run keeps the connection to the peer's watch until ctx ends.
func (w *arrivalWatch) run(ctx context.Context, ws *arrivalWatches) {
	defer close(w.done)
	failures := 0
	for {
		began := time.Now()
		up, noST, why := w.connect(ctx, ws)
		if ctx.Err() != nil {
			return
		}
		wait := maxBackoff
		if noST {
			if w.state != watchNoST {
				fmt.Fprintf(ws.log, "# sync serve: peer %s: no st sync watch there (%s); messages from it wait for the next round. Install st on its PATH for ssh commands (or set ST_SYNC_REMOTE_ST) to have them pulled as they arrive\n", w.peer.Name, why)
			}
			w.state = watchNoST
		} else {
			if up && time.Since(began) >= watchStable {
				failures = 0
			}
			failures++
			wait = min(maxBackoff, watchRetry<<min(failures-1, 16))
			if w.state != watchDown {
				fmt.Fprintf(ws.log, "# sync serve: peer %s: no arrivals watch (%s); messages from it wait for the next round until it is back (next try in %v)\n", w.peer.Name, why, wait)
			}
			w.state = watchDown
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(jitter(wait)):
		}
	}
}

// connect runs the peer's watch until it ends and says how: up when the
// peer answered with the banner, noST when it has no st that knows the
// verb, why in a few words.
func (w *arrivalWatch) connect(ctx context.Context, ws *arrivalWatches) (up, noST bool, why string) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := w.command(ctx, ws)
	// Its stdin stays open while the connection lasts: its end is the
	// peer's sign to stop.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return false, false, err.Error()
	}
	defer func() { _ = stdin.Close() }() // the peer's sign to stop, when still running
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return false, false, err.Error()
	}
	stderr := &tailBuffer{max: 512}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return false, false, err.Error()
	}
	var silent atomic.Bool
	idle := time.AfterFunc(watchIdle, func() { silent.Store(true); cancel() })
	defer idle.Stop()
	up, first := w.read(stdout, idle, ws)
	if first != "" {
		cancel() // not our watch: nothing to wait for
	} else {
		// Its output ended: give ssh a moment to exit with the remote
		// command's status (127 says st is missing) before killing it.
		grace := time.AfterFunc(watchExit, cancel)
		defer grace.Stop()
	}
	err = cmd.Wait()
	why = lastLine(stderr.String())
	switch {
	case first != "":
		why = "it answered " + strconv.Quote(truncate(first, 80))
	case silent.Load():
		why = fmt.Sprintf("silent for %v", watchIdle)
	case why == "" && err != nil:
		why = err.Error()
	case why == "":
		why = "it ended"
	}
	// ssh exits 255 for its own failures; any other end before the
	// banner is the peer's shell or an st without the verb answering.
	var exit *exec.ExitError
	answered := err == nil || errors.As(err, &exit) && exit.ExitCode() != 255 && exit.ExitCode() != -1
	return up, !up && !silent.Load() && (first != "" || answered), why
}

// command is the ssh that runs the peer's watch, in a process group of
// its own that ctx's end kills.
func (w *arrivalWatch) command(ctx context.Context, ws *arrivalWatches) *exec.Cmd {
	args := append([]string{}, ws.rsh[1:]...)
	if w.user != "" {
		args = append(args, "-l", w.user)
	}
	args = append(args, w.host, ws.command+" sync watch -- "+shellQuotePath(w.path))
	cmd := exec.CommandContext(ctx, ws.rsh[0], args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
	return cmd
}

// read reads the peer's lines until the connection ends, noting each
// arrival and holding off idle; up says the banner came, first is the
// line that came instead.
func (w *arrivalWatch) read(stdout io.Reader, idle *time.Timer, ws *arrivalWatches) (up bool, first string) {
	r := bufio.NewReaderSize(stdout, watchLine)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return up, "" // ended, or a line too long: either way, done
		}
		idle.Reset(watchIdle)
		text := strings.TrimSpace(string(line))
		switch {
		case up:
			if a, ok := parseArrival(text); ok {
				w.note(a, ws)
			}
		case text != arrivalsBanner:
			return false, text
		default:
			up = true
			if w.state != watchUp {
				fmt.Fprintf(ws.log, "# sync serve: peer %s reports the messages that reach it: they are pulled as they arrive\n", w.peer.Name)
			}
			w.state = watchUp
			w.note(arrival{}, ws) // a pull for what came while nobody watched
		}
	}
}

// note adds an arrival (the zero one: pull whatever came) and wakes serve.
func (w *arrivalWatch) note(a arrival, ws *arrivalWatches) {
	w.mu.Lock()
	if a == (arrival{}) || len(w.pending) >= watchPending {
		w.all = true
		clear(w.pending)
	} else if !w.all {
		w.pending[a] = true
	}
	w.mu.Unlock()
	wake(ws.wake)
}

// pullWholeNext makes the next report bring a whole pull, without
// waking serve now.
func (w *arrivalWatch) pullWholeNext() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all = true
	clear(w.pending)
}

// take returns and clears what the peer reported since the last take.
func (w *arrivalWatch) take() (got []arrival, all bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for a := range w.pending {
		got = append(got, a)
	}
	clear(w.pending)
	all, w.all = w.all, false
	return got, all
}

// parseArrival reads an "inbox <agent> <name>" line.
func parseArrival(line string) (arrival, bool) {
	f := strings.Fields(line)
	if len(f) != 3 || f[0] != "inbox" || !layout.ValidAgent(f[1]) || !message.IsCanonical(f[2]) {
		return arrival{}, false
	}
	return arrival{agent: f[1], name: f[2]}, true
}
