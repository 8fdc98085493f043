// Package watch tells a consumer when folders may have changed: an
// fsnotify watch on each folder for prompt wake-ups, plus a polling
// backstop for folders that a sync tool or a network filesystem fills
// without events. It reports only "look again"; consumers list the
// folders themselves and keep their own seen-sets, which makes missed,
// duplicated or coalesced events harmless.
//
// Follower (follow.go) is such a consumer: the inbox-following logic of
// `st watch`.
package watch

import (
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// SharedPoll is how often a watcher looks again at folders on a shared
// filesystem (fsutil.FS.Shared: NFS, CephFS, SMB, any FUSE one such as
// GlusterFS), whatever longer backstop its consumer asked for. There
// inotify reports only the writes made through this host's own mount,
// never another host's, so the poll is what finds those: a message sent
// on another host shows within SharedPoll plus the time the filesystem
// takes to show it here (its attribute and entry caches: about a second
// on GlusterFS's defaults).
const SharedPoll = time.Second

// PollFor is the backstop interval for watching dir with poll asked for:
// poll, or SharedPoll when dir is on a shared filesystem and poll is
// longer. A poll of 0 or less (no backstop) stays so.
func PollFor(dir string, poll time.Duration) time.Duration {
	if poll <= SharedPoll {
		return poll
	}
	if fs, err := fsutil.FSOf(dir); err == nil && fs.Shared {
		return SharedPoll
	}
	return poll
}

// Watcher wakes its consumer when a watched folder may have changed.
type Watcher struct {
	fs       *fsnotify.Watcher // nil when inotify is unavailable: polling only
	wake     chan struct{}
	done     chan struct{}
	once     sync.Once
	mu       sync.Mutex
	watching map[string]bool
	wakes    func(fsnotify.Event) bool // nil: every event wakes
	poll     time.Duration             // the backstop asked for
	checked  map[string]bool           // folders whose filesystem was looked at
	fast     bool                      // the SharedPoll ticker runs
}

// New starts a watcher that also wakes every poll interval (the backstop).
// An interval of 0 or less disables the backstop.
func New(poll time.Duration) *Watcher {
	return NewFiltered(poll, nil)
}

// NewFiltered is New for a consumer that cares about some changes only:
// an event wakes it when wakes returns true (nil: every event). wakes is
// called from one goroutine, in event order, so it may keep state.
func NewFiltered(poll time.Duration, wakes func(fsnotify.Event) bool) *Watcher {
	w := &Watcher{wake: make(chan struct{}, 1), done: make(chan struct{}), watching: map[string]bool{}, wakes: wakes,
		poll: poll, checked: map[string]bool{}}
	if fw, err := fsnotify.NewWatcher(); err == nil {
		w.fs = fw
		go w.forward()
	}
	if poll > 0 {
		go w.tick(poll)
	}
	return w
}

// Watch adds folders to watch; ones already watched, or missing, are
// skipped (call Watch again after a folder appears; the backstop covers
// the gap). It is cheap to call on every wake-up. A folder on a shared
// filesystem makes the backstop at most SharedPoll.
func (w *Watcher) Watch(dirs ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range dirs {
		if w.fast || w.poll <= SharedPoll || w.checked[d] {
			continue
		}
		fs, err := fsutil.FSOf(d)
		if err != nil {
			continue // missing: looked at again once it appears
		}
		w.checked[d] = true
		if fs.Shared {
			w.fast = true
			go w.tick(SharedPoll)
		}
	}
	if w.fs == nil {
		return
	}
	for _, d := range dirs {
		if w.watching[d] {
			continue
		}
		if err := w.fs.Add(d); err == nil {
			w.watching[d] = true
		}
	}
}

// Wake returns the channel that receives a value after any change or
// poll tick. Wake-ups coalesce: one pending value stands for many events.
func (w *Watcher) Wake() <-chan struct{} { return w.wake }

// Close stops the watcher.
func (w *Watcher) Close() error {
	w.once.Do(func() { close(w.done) })
	if w.fs != nil {
		return w.fs.Close()
	}
	return nil
}

func (w *Watcher) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *Watcher) forward() {
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.mu.Lock()
				delete(w.watching, ev.Name) // a watched folder itself went away
				w.mu.Unlock()
			}
			if w.wakes == nil || w.wakes(ev) {
				w.signal()
			}
		case _, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.signal() // e.g. queue overflow: look again
		case <-w.done:
			return
		}
	}
}

func (w *Watcher) tick(poll time.Duration) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			w.signal()
		case <-w.done:
			return
		}
	}
}
