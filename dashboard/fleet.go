package dashboard

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smalltalk-go/st/agents"
	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/status"
)

// nowLines is how many non-blank lines of now.md the fleet view shows.
const nowLines = 3

// nowLineMax caps each of those lines, in runes.
const nowLineMax = 160

// Row is one agent's summary on the fleet page.
type Row struct {
	ID     string
	Name   string // "" when there is none
	Status string // effective, as `st status` derives it
	Unread int
	// LastActivity is the newest mtime (fractional unix ms) of the inbox,
	// archive and status entries, as `st agents --enrich`; 0 when none.
	LastActivity float64
	Waiting      *events.Waiting
	Now          []string // now.md's first non-blank lines, capped

	version uint64
}

func (r *Row) same(o *Row) bool {
	return r.ID == o.ID && r.Name == o.Name && r.Status == o.Status && r.Unread == o.Unread &&
		r.LastActivity == o.LastActivity && slices.Equal(r.Now, o.Now) &&
		(r.Waiting == nil) == (o.Waiting == nil) && (r.Waiting == nil || *r.Waiting == *o.Waiting)
}

// fleet holds the rows of every agent and the version of the last
// change. Methods are safe for concurrent use.
type fleet struct {
	t   *fsutil.Tree
	now func() time.Time

	mu      sync.RWMutex
	version uint64
	rows    map[string]*Row
	ids     []string          // sorted
	gone    map[string]uint64 // removed agents, by the version of their removal
}

// newFleet summarises the agents ids.
func newFleet(t *fsutil.Tree, ids []string, now func() time.Time) *fleet {
	f := &fleet{t: t, now: now, rows: map[string]*Row{}, gone: map[string]uint64{}}
	scans := agents.ScanAll(t, ids)
	at := now()
	for i, id := range ids {
		r := f.summarise(id, scans[i], at)
		f.rows[id] = &r
	}
	f.ids = ids
	return f
}

// summarise builds id's row from a scan of its folders.
func (f *fleet) summarise(id string, s agents.Scan, at time.Time) Row {
	r := Row{ID: id, Status: status.Effective(f.t, id, at), Unread: s.InboxCount(), Waiting: s.Waiting}
	if n := agents.Name(f.t, id); n != nil {
		r.Name = *n
	}
	if la := s.LastActivity(); la != nil {
		r.LastActivity = *la
	}
	if text, ok := agentctx.ReadNow(f.t, id); ok {
		r.Now = firstLines(text, nowLines, nowLineMax)
	}
	return r
}

// firstLines returns up to n non-blank lines of text, trimmed and capped.
func firstLines(text string, n, max int) []string {
	var out []string
	for line := range strings.Lines(text) {
		if line = jsstr.TrimSpace(line); line == "" {
			continue
		}
		out = append(out, events.Cap(line, max))
		if len(out) == n {
			break
		}
	}
	return out
}

// Version is the version of the last change.
func (f *fleet) Version() uint64 {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.version
}

// Rows returns a copy of every row, sorted by agent, and the version.
func (f *fleet) Rows() ([]Row, uint64) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	out := make([]Row, len(f.ids))
	for i, id := range f.ids {
		out[i] = *f.rows[id]
	}
	return out, f.version
}

// Row returns id's row.
func (f *fleet) Row(id string) (Row, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	r, ok := f.rows[id]
	if !ok {
		return Row{}, false
	}
	return *r, true
}

// Since returns the rows changed and the agents removed after version v.
func (f *fleet) Since(v uint64) (changed []Row, removed []string, now uint64) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for _, id := range f.ids {
		if r := f.rows[id]; r.version > v {
			changed = append(changed, *r)
		}
	}
	for id, gv := range f.gone {
		if gv > v {
			removed = append(removed, id)
		}
	}
	slices.Sort(removed)
	return changed, removed, f.version
}

// Refresh rescans the agents ids (an id that is no agent any more is
// removed, a new one added) and returns those whose row changed.
func (f *fleet) Refresh(ids []string) []string {
	at := f.now()
	type fresh struct {
		row   Row
		agent bool
	}
	got := make([]fresh, len(ids))
	for i, id := range ids {
		if agents.IsAgent(f.t, id) {
			got[i] = fresh{f.summarise(id, agents.ScanAgent(f.t, id), at), true}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var changed []string
	for i, id := range ids {
		old, had := f.rows[id]
		switch {
		case !got[i].agent && had:
			f.version++
			delete(f.rows, id)
			f.ids = slices.DeleteFunc(f.ids, func(s string) bool { return s == id })
			f.gone[id] = f.version
		case !got[i].agent:
			continue
		case had && old.same(&got[i].row):
			continue
		default:
			f.version++
			r := got[i].row
			r.version = f.version
			f.rows[id] = &r
			if !had {
				at, _ := slices.BinarySearch(f.ids, id)
				f.ids = slices.Insert(f.ids, at, id)
				delete(f.gone, id)
			}
		}
		changed = append(changed, id)
	}
	return changed
}

// IDs returns the agents, sorted.
func (f *fleet) IDs() []string {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return slices.Clone(f.ids)
}

// Restatus re-derives every agent's status, which turns unknown with the
// status file's age alone, and returns the agents whose status changed.
func (f *fleet) Restatus() []string {
	at := f.now()
	ids := f.IDs()
	states := make([]string, len(ids))
	for i, id := range ids {
		states[i] = status.Effective(f.t, id, at)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var changed []string
	for i, id := range ids {
		r, ok := f.rows[id]
		if !ok || r.Status == states[i] {
			continue
		}
		f.version++
		c := *r
		c.Status, c.version = states[i], f.version
		f.rows[id] = &c
		changed = append(changed, id)
	}
	return changed
}
