// Package agents enumerates the agents of a store and summarises them:
// who exists, their effective status and display name, and (enriched)
// when anything of theirs last changed and how many messages wait in
// their inbox. It only reads; nothing is created or changed.
//
// The JSON field order of Agent and Enriched is the wire order of
// `st agents --json [--enrich]` and the MCP st_agents tool.
package agents

import (
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/status"
)

// Agent is one listed agent.
type Agent struct {
	Identity string  `json:"identity"`
	Status   string  `json:"status"`
	Name     *string `json:"name"` // nil when there is no usable name file
	// Host (ours) is the host the agent lives on and how fresh
	// this store's copy of its data is; set by SetHosts, absent when no
	// host's st sync has claimed the agent.
	Host *fleet.Host `json:"host,omitempty"`
	// AlsoClaimedBy lists the other hosts where the agent wrote its own
	// state lately (fleet.OtherClaims): it runs on more than one.
	AlsoClaimedBy []string `json:"alsoClaimedBy,omitempty"`
}

// Enriched is an Agent with its activity summary.
type Enriched struct {
	Agent
	// LastActivity is the newest mtime, in fractional unix milliseconds,
	// over the entries directly inside inbox/ and archive/ and the status
	// file; nil when there is none.
	LastActivity *float64 `json:"lastActivity"`
	// Inbox counts the canonical message names in inbox/.
	Inbox int `json:"inbox"`
	// Waiting (ours) is set when the agent waits on a human:
	// its latest session ended in a notification nothing answered.
	Waiting *events.Waiting `json:"waiting,omitempty"`
	// Attention (ours) is set when the agent needs a person (Attend): it
	// waits on a human, an API error stopped it, it thrashes, or it is
	// busy but silent; with where to find it.
	Attention *Attention `json:"attention,omitempty"`

	group string    // the attention group (Attend)
	since time.Time // when the agent entered it
}

// Attention is an agent's attention group, when it needs a person.
type Attention struct {
	Group  string `json:"group"`
	Label  string `json:"label"`
	Since  string `json:"since,omitempty"`  // when it entered the group (events' ts format)
	Detail string `json:"detail,omitempty"` // what it waits for, which error, which call
	// Where is where to go: the session's folder, its host, its tmux pane.
	Where *attention.Where `json:"where,omitempty"`
}

// Group is the agent's attention group ("" before Attend).
func (e *Enriched) Group() string { return e.group }

// Attend places each agent in its attention group as of now (the
// dashboard's groups, attention.Classify) and sets Attention on those
// that need a person; scans[i] belongs to list[i].
func Attend(t *fsutil.Tree, list []Enriched, scans []Scan, now time.Time) {
	for i := range list {
		e, act := &list[i], &scans[i].Activity
		claimed := e.Status
		if claimed == "unknown" {
			_, claimed = attention.StatusOf(t, e.Identity, now)
		}
		var la float64
		if e.LastActivity != nil {
			la = *e.LastActivity
		}
		e.group, e.since = attention.Classify(act.Signals(e.Status, claimed, la), now)
		if !attention.Alarm(e.group) {
			continue
		}
		at := &Attention{Group: e.group, Label: attention.Label(e.group), Detail: attention.Detail(e.group, act)}
		if !e.since.IsZero() {
			at.Since = events.Stamp(e.since)
		}
		w := act.Where
		if w.Host == "" && e.Host != nil {
			w.Host = e.Host.Name
		}
		if !w.Empty() {
			at.Where = &w
		}
		e.Attention = at
	}
}

// AttendFleet is the list enriched and attended (Attend) as cheaply as
// the groups allow, for a caller that wants only the attention (the
// hooks' fleet brief): an agent's inbox and archive, which only keep a
// busy agent from counting as busy but silent, are scanned only for the
// busy agents that its events and status file alone would call silent.
// The others' Inbox stays 0 and their LastActivity is their status
// file's.
func AttendFleet(t *fsutil.Tree, list []Agent, now time.Time) []Enriched {
	ids := make([]string, len(list))
	for i, a := range list {
		ids[i] = a.Identity
	}
	scans := scanEach(t, ids, scanEvents)
	out := EnrichScanned(list, scans)
	Attend(t, out, scans, now)
	for i := range out {
		if out[i].group != attention.Stale {
			continue
		}
		scans[i] = ScanAgent(t, ids[i])
		out[i] = EnrichScanned(list[i:i+1], scans[i:i+1])[0]
		out[i].Attention = nil
		Attend(t, out[i:i+1], scans[i:i+1], now)
	}
	return out
}

// scanEvents is ScanAgent without the inbox and archive.
func scanEvents(t *fsutil.Tree, id string) Scan {
	var s Scan
	if t == nil {
		return s
	}
	s.Activity = attention.Read(t, id, attention.TailBytes)
	if fi, err := t.Stat(id + "/status"); err == nil {
		s.Status = &Entry{Name: "status", MtimeMs: MtimeMs(fi), Stat: true, Regular: fi.Mode().IsRegular()}
	}
	return s
}

// SortByAttention orders attended agents as the dashboard does: by
// group, then the longest in it first, then by name.
func SortByAttention(list []Enriched) {
	slices.SortStableFunc(list, func(a, b Enriched) int {
		return attention.Compare(a.group, a.since, a.Identity, b.group, b.since, b.Identity)
	})
}

// Options filter a listing.
type Options struct {
	// Status keeps only agents whose effective status equals it exactly
	// (not validated: an unknown word gives an empty list). Empty means
	// no filter.
	Status string
	// Mailbox is the operator's mailbox, where the hooks tell a person
	// that an agent waits or failed: a person reads it, no agent runs as
	// it, so it is left out unless it acts as one (IsMailbox).
	Mailbox string
	// Except is an agent left out before anything of it is read: the
	// fleet brief's own agent, of which the brief never speaks.
	Except string
}

// IsMailbox reports whether the folder id is the mailbox named mailbox
// and nothing more: no status, no event log, no context of its own.
func IsMailbox(t *fsutil.Tree, id, mailbox string) bool {
	return id == mailbox && mailbox != "" && !exists(t, id+"/status") && !t.IsDir(id+"/events") && !t.IsDir(id+"/context")
}

// IDs returns the agents of the store, sorted: root entries that are
// valid agent names (so neither hidden nor reserved), are directories and
// hold an inbox/ or archive/ directory or a status entry. A nil tree (no
// root yet) has none.
func IDs(t *fsutil.Tree) []string {
	if t == nil {
		return []string{}
	}
	names, err := t.ReadDirNames(".")
	if err != nil {
		return []string{}
	}
	ids := make([]string, 0, len(names))
	for _, id := range names {
		if IsAgent(t, id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// IsAgent reports whether the root entry id is an agent by IDs' rule, for
// callers that learn of one name at a time (the dashboard's watcher).
func IsAgent(t *fsutil.Tree, id string) bool {
	if t == nil || !layout.ValidAgent(id) || !t.IsDir(id) {
		return false
	}
	return t.IsDir(id+"/inbox") || t.IsDir(id+"/archive") || exists(t, id+"/status")
}

// List returns the agents with their effective status at now and their
// display name, filtered by opts.
func List(t *fsutil.Tree, now time.Time, opts Options) []Agent {
	ids := IDs(t)
	out := make([]Agent, 0, len(ids))
	for _, id := range ids {
		if id == opts.Except || IsMailbox(t, id, opts.Mailbox) {
			continue
		}
		a := Agent{Identity: id, Status: status.Effective(t, id, now), Name: Name(t, id)}
		if opts.Status != "" && a.Status != opts.Status {
			continue
		}
		out = append(out, a)
	}
	return out
}

// SetHosts fills each agent's Host from the fleet view.
func SetHosts(list []Agent, f fleet.Fleet) {
	for i := range list {
		if h, ok := f.AgentHost(list[i].Identity); ok {
			list[i].Host = &h
			list[i].AlsoClaimedBy = f.OtherClaims(list[i].Identity)
		}
	}
}

// Enrich adds each agent's last activity, inbox count and, as of now,
// its attention group (Attend).
func Enrich(t *fsutil.Tree, list []Agent, now time.Time) []Enriched {
	ids := make([]string, len(list))
	for i, a := range list {
		ids[i] = a.Identity
	}
	scans := ScanAll(t, ids)
	out := EnrichScanned(list, scans)
	Attend(t, out, scans, now)
	return out
}

// EnrichScanned is Enrich with the agents' folders already scanned
// (scans[i] belongs to list[i]).
func EnrichScanned(list []Agent, scans []Scan) []Enriched {
	out := make([]Enriched, len(list))
	for i, a := range list {
		out[i] = Enriched{Agent: a, LastActivity: scans[i].LastActivity(), Inbox: scans[i].InboxCount(), Waiting: scans[i].Activity.Waiting}
	}
	return out
}

// MaxNameBytes is how much of a name file is read (one short line).
const MaxNameBytes = 4 << 10

// Name returns the first line of <id>/name trimmed of whitespace, or nil
// when the file is missing, unreadable or blank.
func Name(t *fsutil.Tree, id string) *string {
	if t == nil {
		return nil
	}
	data, _, err := t.ReadRange(id+"/name", 0, MaxNameBytes)
	if err != nil {
		return nil
	}
	line, _, _ := strings.Cut(strings.ToValidUTF8(string(data), "\uFFFD"), "\n")
	line = jsstr.TrimSpace(line)
	if line == "" {
		return nil
	}
	return &line
}

// LastActivity returns the newest mtime (fractional unix ms) over every
// entry directly inside <id>/inbox and <id>/archive and the status file,
// or nil when there is none.
func LastActivity(t *fsutil.Tree, id string) *float64 { return ScanAgent(t, id).LastActivity() }

// InboxCount returns the number of canonical message names in <id>/inbox.
func InboxCount(t *fsutil.Tree, id string) int { return ScanAgent(t, id).InboxCount() }

// MtimeMs is a file's modification time in unix milliseconds with the
// sub-millisecond fraction, computed like Node's Stats.mtimeMs.
func MtimeMs(fi fs.FileInfo) float64 { return mtimeMs(fi.ModTime()) }

func mtimeMs(mt time.Time) float64 {
	return float64(mt.Unix())*1000 + float64(mt.Nanosecond())/1e6
}

func exists(t *fsutil.Tree, rel string) bool {
	_, err := t.Stat(rel)
	return err == nil
}
