package peersync

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/watch"
)

// The arrivals protocol: what `st sync watch <root>` writes on a hub, and
// what a spoke's serve reads over its ssh connection. The first line is
// the banner (an st without the verb answers with something else); then
// one line per message that arrived in an inbox under the root,
// "inbox <agent> <name>", and "ping" every arrivalsPing, so that both
// ends notice a connection that died without a word.
const (
	arrivalsBanner = "st-sync-watch 1"
	arrivalsPing   = 30 * time.Second
	// arrivalsPoll is the watch's backstop: inotify misses nothing on a
	// local filesystem, but a root on a shared one fills without events.
	arrivalsPoll = 10 * time.Second
)

// ReportArrivals writes the arrivals protocol for root on out until ctx
// ends, in reaches its end (the spoke hung up: sshd closes the command's
// stdin) or a write fails. Only messages that arrive after it started
// are reported: a spoke pulls once when it connects. A root that does
// not exist yet is waited for.
func ReportArrivals(ctx context.Context, root string, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, in) // only its end matters
		cancel()
	}()
	a := &arrivals{root: root, dirty: map[string]bool{}, all: true}
	wt := watch.NewFiltered(arrivalsPoll, a.note)
	defer func() { _ = wt.Close() }() // stopping: nothing left to report to
	// What is there now is not news: the spoke pulls once when it reads
	// the banner, written only now that every later arrival is watched.
	a.scan(wt)
	w := bufio.NewWriter(out)
	if _, err := fmt.Fprintln(w, arrivalsBanner); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	ping := time.NewTicker(arrivalsPing)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ping.C:
			fmt.Fprintln(w, "ping")
		case <-wt.Wake():
			for _, m := range a.scan(wt) {
				fmt.Fprintf(w, "inbox %s %s\n", m.agent, m.name)
			}
		}
		if err := w.Flush(); err != nil {
			return err // the spoke is gone
		}
	}
}

// arrivals keeps what ReportArrivals has seen: the names in every inbox,
// and which inboxes events named since the last scan.
type arrivals struct {
	root  string
	seen  map[string]map[string]bool // agent -> names in its inbox
	mu    sync.Mutex
	dirty map[string]bool // agents whose inbox an event named
	all   bool            // look at every inbox: a new agent, a poll, an overflow
}

type arrival struct{ agent, name string }

// note is the watch filter: it marks the inbox an event names (or every
// inbox, for an event on the root or an agent folder) and wakes the loop
// for arrivals only, not for rsync's temp files or the status and
// context writes that fill a hub's pushes.
func (a *arrivals) note(ev fsnotify.Event) bool {
	rel, err := filepath.Rel(a.root, ev.Name)
	if err != nil {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case len(parts) == 1 && ev.Has(fsnotify.Create): // a new agent folder
		a.all = true
	case len(parts) == 2 && parts[1] == "inbox" && ev.Has(fsnotify.Create):
		a.dirty[parts[0]] = true
	case len(parts) == 3 && parts[1] == "inbox" && ev.Has(fsnotify.Create) && message.IsCanonical(parts[2]):
		a.dirty[parts[0]] = true
	default:
		return false
	}
	return true
}

// scan watches the root, its agent folders and their inboxes (before
// listing them, so nothing lands unseen in between), lists the inboxes
// events named (all of them after a poll or a new agent) and returns the
// names not seen before.
func (a *arrivals) scan(wt *watch.Watcher) []arrival {
	a.mu.Lock()
	all, dirty := a.all || len(a.dirty) == 0, a.dirty
	a.all, a.dirty = false, map[string]bool{}
	a.mu.Unlock()
	first := a.seen == nil
	if first {
		a.seen = map[string]map[string]bool{}
	}
	if all {
		dirty = map[string]bool{}
		dirs := []string{a.root}
		entries, _ := os.ReadDir(a.root)
		for _, e := range entries {
			if e.IsDir() && layout.ValidAgent(e.Name()) {
				dirty[e.Name()] = true
				dirs = append(dirs, filepath.Join(a.root, e.Name()), filepath.Join(a.root, e.Name(), "inbox"))
			}
		}
		wt.Watch(dirs...)
	}
	var out []arrival
	for agent := range dirty {
		if !layout.ValidAgent(agent) {
			continue
		}
		dir := filepath.Join(a.root, agent, "inbox")
		wt.Watch(filepath.Join(a.root, agent), dir)
		entries, _ := os.ReadDir(dir)
		now := make(map[string]bool, len(entries))
		for _, e := range entries {
			name := e.Name()
			if !message.IsCanonical(name) {
				continue
			}
			now[name] = true
			if !first && !a.seen[agent][name] {
				out = append(out, arrival{agent, name})
			}
		}
		// Only what is there now: names swept or archived are dropped, so
		// the set never outgrows the inboxes.
		a.seen[agent] = now
	}
	return out
}
