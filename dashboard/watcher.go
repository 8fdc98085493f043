package dashboard

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// settle is how long the watcher gathers events before rescanning, so a
// burst (a message and its folder fsync, an rsync run) costs one rescan.
const settle = 25 * time.Millisecond

// agentDirs are the folders of an agent whose changes the page shows.
var agentDirs = []string{"", "/inbox", "/archive", "/acks", "/context", "/context/decisions", "/events"}

// watcher turns filesystem changes into the agents they touch. fsnotify
// names the changed path, so only that agent is rescanned; a backstop
// every poll compares each agent's folder signature, for stores filled
// without events (sync tools, network filesystems), and re-derives every
// status, which turns unknown with age alone.
type watcher struct {
	t        *fsutil.Tree
	root     string // the tree's base, as fsnotify reports paths
	fs       *fsnotify.Watcher
	watching map[string]bool
	sigs     map[string]signature
}

// signature is what the backstop compares: the modification times and
// sizes of an agent's folders (acks/ included: an acknowledgement ends a
// pending one), its status and now.md, and its newest log.
type signature [18]int64

func newWatcher(t *fsutil.Tree) *watcher {
	w := &watcher{t: t, root: filepath.Clean(t.Base()), watching: map[string]bool{}, sigs: map[string]signature{}}
	if fw, err := fsnotify.NewWatcher(); err == nil {
		w.fs = fw
	}
	return w
}

func (w *watcher) close() {
	if w.fs != nil {
		_ = w.fs.Close() // closing on the way out: nothing left to report
	}
}

// watchAgent adds id's folders (missing ones are retried on its next
// change) and records its signature.
func (w *watcher) watchAgent(id string) {
	w.sigs[id] = w.signature(id)
	if w.fs == nil {
		return
	}
	for _, d := range agentDirs {
		w.add(filepath.Join(w.root, filepath.FromSlash(id+d)))
	}
}

func (w *watcher) add(dir string) {
	if w.watching[dir] {
		return
	}
	if err := w.fs.Add(dir); err == nil {
		w.watching[dir] = true
	}
}

// agentOf returns the root entry a path reported by fsnotify lies in.
func (w *watcher) agentOf(name string) string {
	rel, err := filepath.Rel(w.root, name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return first
}

func (w *watcher) signature(id string) signature {
	var s signature
	put := func(i int, rel string) {
		if fi, err := w.t.Stat(rel); err == nil {
			s[i], s[i+1] = fi.ModTime().UnixNano(), fi.Size()
		}
	}
	for i, d := range []string{"", "/inbox", "/archive", "/context", "/events", "/status", "/context/now.md", "/acks"} {
		put(2*i, id+d)
	}
	if rel, _, ok := events.Latest(w.t, id); ok {
		put(16, rel)
	}
	return s
}

// start watches the root, then every agent in it, and returns the
// agents. Call it before the first scan: whatever changes after the
// watches and signatures are taken is then reported, nothing falls
// between the scan and the watch.
func (w *watcher) start() []string {
	if w.fs != nil {
		w.add(w.root)
	}
	ids := agents.IDs(w.t)
	for _, id := range ids {
		w.watchAgent(id)
	}
	return ids
}

// run reports the agents touched by each change, or by a change the
// backstop found, until ctx ends; start must have been called. poll ≤ 0
// disables the backstop.
func (w *watcher) run(ctx context.Context, poll time.Duration, changed func(ids []string, backstop bool)) {
	var evs <-chan fsnotify.Event
	var errs <-chan error
	if w.fs != nil {
		evs, errs = w.fs.Events, w.fs.Errors
	}
	var tick <-chan time.Time
	if poll > 0 {
		t := time.NewTicker(poll)
		defer t.Stop()
		tick = t.C
	}
	dirty := map[string]bool{}
	var settled <-chan time.Time
	flush := func(backstop bool) {
		list := make([]string, 0, len(dirty))
		for id := range dirty {
			list = append(list, id)
			delete(dirty, id)
		}
		for _, id := range list {
			w.watchAgent(id)
		}
		changed(list, backstop)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-evs:
			if !ok {
				evs = nil
				continue
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				delete(w.watching, ev.Name)
			}
			if id := w.agentOf(ev.Name); id != "" && id[0] != '.' {
				dirty[id] = true
				if settled == nil {
					settled = time.After(settle)
				}
			}
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			// A queue overflow lost events: look at everything.
			for _, id := range w.listRoot() {
				dirty[id] = true
			}
			flush(true)
		case <-settled:
			settled = nil
			flush(false)
		case <-tick:
			for _, id := range w.listRoot() {
				if s := w.signature(id); s != w.sigs[id] {
					dirty[id] = true
				}
			}
			for id := range w.sigs {
				if _, err := w.t.Lstat(id); err != nil {
					dirty[id] = true
					delete(w.sigs, id)
				}
			}
			flush(true)
		}
	}
}

// listRoot returns the root's entries that may be agents.
func (w *watcher) listRoot() []string {
	names, err := w.t.ReadDirNames(".")
	if err != nil {
		return nil
	}
	out := names[:0]
	for _, n := range names {
		if n != "" && n[0] != '.' {
			out = append(out, n)
		}
	}
	return out
}
