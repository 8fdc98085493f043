package dashboard

import (
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/attention"
	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/events"
	hostfleet "github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// nowHeadMax is how much of now.md the fleet page searches for its first
// line: a row holds no more of a big now.md than that.
const nowHeadMax = 64 << 10

// nowLineMax caps now.md's line on the fleet page, in runes.
const nowLineMax = 160

// Row is one agent's summary on the fleet page.
type Row struct {
	ID      string
	Name    string // "" when there is none
	Status  string // effective, as `st status` derives it
	Claimed string // the state the status file names, stale or not
	Unread  int
	// Unacked are the messages that ask for an acknowledgement the agent
	// has not given (acks.go), oldest first.
	Unacked []string
	// LastActivity is the newest mtime (fractional unix ms) of the inbox,
	// archive and status entries, as `st agents --enrich`; 0 when none.
	LastActivity float64
	Now          string // now.md's first line, as plain text

	// From the hook events (activity.go).
	Waiting    *events.Waiting
	APIError   *APIError
	Thrash     *Thrash // only when thrashing
	Fill       Fill
	LastTool   string
	LastTarget string
	LastEvent  time.Time
	Where      attention.Where   // where a person finds the agent (its folder, host, tmux pane)
	Spark      [sparkBuckets]int // the last hour's events, oldest first
	Subagents  Subagents         // the latest session's subagents

	// Group is the attention group (attention.go) and Since when the
	// agent entered it.
	Group string
	Since time.Time

	// Peer is the host the agent lives on when that is another machine
	// whose data arrived through st sync (nil for this machine's agents
	// and in a store no host syncs).
	Peer *hostfleet.Host

	version uint64
}

func (r *Row) same(o *Row) bool {
	a, b := *r, *o
	a.version, b.version = 0, 0
	return reflect.DeepEqual(a, b)
}

// fleet holds the rows of every agent and the version of the last
// change. Methods are safe for concurrent use.
type fleet struct {
	t       *fsutil.Tree
	mailbox string // the operator's, not an agent (agents.IsMailbox)
	now     func() time.Time
	hosts   func(*fsutil.Tree, time.Time) hostfleet.Fleet // which host each agent lives on

	peers   hostfleet.Fleet // as of the last scan
	mu      sync.RWMutex
	version uint64
	rows    map[string]*Row
	ids     []string          // sorted
	gone    map[string]uint64 // removed agents, by the version of their removal
	cursors map[string]*cursor

	scanMu sync.Mutex // one rescan at a time: cursors are not shared
}

// newFleet summarises the agents ids.
func newFleet(t *fsutil.Tree, ids []string, now func() time.Time, hosts func(*fsutil.Tree, time.Time) hostfleet.Fleet, mailbox string) *fleet {
	f := &fleet{t: t, now: now, hosts: hosts, rows: map[string]*Row{}, gone: map[string]uint64{}, cursors: map[string]*cursor{}, mailbox: mailbox}
	ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return agents.IsMailbox(t, id, mailbox) })
	scans := agents.ScanAll(t, ids)
	at := now()
	f.readHosts(at)
	for i, id := range ids {
		r := f.summarise(id, scans[i], at)
		f.rows[id] = &r
	}
	f.ids = ids
	return f
}

// summarise builds id's row from a scan of its folders and what its
// event log gained since the last look.
func (f *fleet) summarise(id string, s agents.Scan, at time.Time) Row {
	r := Row{ID: id, Unread: s.InboxCount()}
	r.Status, r.Claimed = statusOf(f.t, id, at)
	if n := agents.Name(f.t, id); n != nil {
		r.Name = *n
	}
	if la := s.LastActivity(); la != nil {
		r.LastActivity = *la
	}
	if text, ok := agentctx.ReadNowHead(f.t, id, nowHeadMax); ok {
		r.Now = plainLine(text, nowLineMax)
	}
	c := f.cursors[id]
	if c == nil {
		c = &cursor{}
		f.cursors[id] = c
	}
	c.advance(f.t, id)
	r.derive(&c.act, at)
	if c.asks == nil {
		c.asks = map[string]bool{}
	}
	r.Unacked = pendingAcks(f.t, id, c.asks)
	r.Peer = f.peerOf(id)
	return r
}

// readHosts rereads the hosts' sync records (a few small files).
func (f *fleet) readHosts(at time.Time) {
	if f.hosts != nil {
		f.peers = f.hosts(f.t, at)
	}
}

// peerOf is the other host agent id lives on, if any.
func (f *fleet) peerOf(id string) *hostfleet.Host {
	if h, ok := f.peers.AgentHost(id); ok && !h.Local {
		return &h
	}
	return nil
}

// Hosts is every host the store knows, as of the last scan.
func (f *fleet) Hosts() []hostfleet.Host {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return slices.Clone(f.peers.Hosts)
}

// statusOf is id's effective and claimed status (attention.StatusOf).
func statusOf(t *fsutil.Tree, id string, at time.Time) (effective, claimed string) {
	return attention.StatusOf(t, id, at)
}

// derive sets the row's event-derived fields and its group as of now.
func (r *Row) derive(a *activity, now time.Time) {
	if f := &a.Fill; f.Transcript != "" {
		// The last Stop ran before its reply was written: read the
		// reply's fill now (the backstop's rescans retry until it is).
		if tokens, model, ok := hooks.PendingFill(f.Transcript, f.Stopped); ok {
			f.Tokens, f.Reported, f.Model, f.Transcript = tokens, 0, model, ""
		}
	}
	r.Waiting, r.APIError, r.Thrash = a.Waiting, a.APIError, a.Thrashing()
	r.Fill, r.LastTool, r.LastTarget, r.LastEvent, r.Where = a.Fill, a.LastTool, a.LastTarget, a.LastEvent, a.Where
	r.Spark = a.spark.at(now)
	r.Subagents = subagentsOf(&a.subs, a.partial)
	r.attend(now)
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
	f.scanMu.Lock()
	defer f.scanMu.Unlock()
	at := f.now()
	type fresh struct {
		row   Row
		agent bool
	}
	got := make([]fresh, len(ids))
	for i, id := range ids {
		if agents.IsAgent(f.t, id) && !agents.IsMailbox(f.t, id, f.mailbox) {
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
			delete(f.cursors, id)
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
// status file's age alone, and its attention group and sparkline, which
// age too, and returns the agents whose row changed.
func (f *fleet) Restatus() []string {
	f.scanMu.Lock()
	defer f.scanMu.Unlock()
	at := f.now()
	f.mu.Lock()
	f.readHosts(at) // records arrive with a sync, and age
	f.mu.Unlock()
	ids := f.IDs()
	states := make([][2]string, len(ids))
	for i, id := range ids {
		states[i][0], states[i][1] = statusOf(f.t, id, at)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var changed []string
	for i, id := range ids {
		r, ok := f.rows[id]
		if !ok {
			continue
		}
		c := *r
		c.Status, c.Claimed = states[i][0], states[i][1]
		c.Peer = f.peerOf(id)
		if cur := f.cursors[id]; cur != nil {
			c.derive(&cur.act, at)
		} else {
			c.attend(at)
		}
		if c.same(r) {
			continue
		}
		f.version++
		c.version = f.version
		f.rows[id] = &c
		changed = append(changed, id)
	}
	return changed
}
