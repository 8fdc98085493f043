// Package overview computes the at-a-glance dashboard of `st overview`
// and the MCP overview tool: the agent's inbox summary, every agent with
// its activity, and the most recent changes across the store. It only
// reads.
package overview

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/message"
)

// DefaultRecent is how many recent-activity entries are kept by default.
const DefaultRecent = 10

// Overview is the dashboard. Field order is the JSON wire order.
type Overview struct {
	Identity string            `json:"identity"`
	Inbox    Inbox             `json:"inbox"`
	Members  []agents.Enriched `json:"members"`
	Recent   []Activity        `json:"recent"`
	// Hosts (ours) is every host whose st sync reached this
	// store, with how fresh its data is here (SetFleet); absent without.
	Hosts []fleet.Host `json:"hosts,omitempty"`
}

// SetFleet adds the fleet view: each member's host and the host list.
func SetFleet(o *Overview, f fleet.Fleet) {
	for i := range o.Members {
		if h, ok := f.AgentHost(o.Members[i].Identity); ok {
			o.Members[i].Host = &h
			o.Members[i].AlsoClaimedBy = f.OtherClaims(o.Members[i].Identity)
			if at := o.Members[i].Attention; at != nil && (at.Where == nil || at.Where.Host == "") {
				w := attention.Where{Host: h.Name}
				if at.Where != nil {
					w.Cwd, w.Pane = at.Where.Cwd, at.Where.Pane
				}
				at.Where = &w
			}
		}
	}
	o.Hosts = f.Hosts
}

// Inbox summarises the agent's own inbox.
type Inbox struct {
	Unread int     `json:"unread"` // canonical names in inbox/
	Oldest *Oldest `json:"oldest"` // nil when empty or the first file is unreadable
}

// Oldest describes the first canonical inbox file.
type Oldest struct {
	Filename string `json:"filename"`
	From     string `json:"from"`  // "unknown" when missing or empty
	AgeMs    int64  `json:"ageMs"` // now − filename timestamp, at least 0
	Subject  string `json:"subject,omitempty"`
}

// Activity kinds.
const (
	KindMessage = "message" // a file in some inbox/
	KindArchive = "archive" // a file in some archive/
	KindStatus  = "status"  // a status file
)

// Activity is one recent change.
type Activity struct {
	Kind string `json:"kind"`
	// Identity is the sender (the raw from value, "unknown" only when it
	// is absent) for messages, the agent for status changes.
	Identity string  `json:"identity"`
	Target   string  `json:"target,omitempty"` // the folder's agent, for messages
	AgeMs    float64 `json:"ageMs"`            // now − mtime in fractional ms, at least 0
	Filename string  `json:"filename,omitempty"`
	Subject  string  `json:"subject,omitempty"`
}

// Get computes the overview for agent id at now, keeping recent entries
// of recent activity (a negative value means DefaultRecent); the
// operator's mailbox (agents.Options) is not counted as an agent.
func Get(t *fsutil.Tree, id string, now time.Time, recent int, mailbox string) Overview {
	if recent < 0 {
		recent = DefaultRecent
	}
	if t != nil {
		var release func()
		t, release = t.Folders() // each agent's folder opened once for the whole pass
		defer release()
	}
	list := agents.List(t, now, agents.Options{Mailbox: mailbox})
	ids := make([]string, len(list))
	for i, m := range list {
		ids[i] = m.Identity
	}
	scans := agents.ScanAll(t, ids)
	members := agents.EnrichScanned(list, scans)
	agents.Attend(t, members, scans, now)
	return Overview{
		Identity: id,
		Inbox:    inboxSummary(t, id, now),
		Members:  members,
		Recent:   recentActivity(t, ids, scans, float64(now.UnixMilli()), recent),
	}
}

func inboxSummary(t *fsutil.Tree, id string, now time.Time) Inbox {
	if t == nil {
		return Inbox{}
	}
	names, err := t.ReadDirNames(id + "/inbox")
	if err != nil {
		return Inbox{}
	}
	names = inbox.WithoutTwins(t, id, names)
	first, n := "", 0
	for _, name := range names {
		if message.IsCanonical(name) {
			n++
			if first == "" || name < first {
				first = name
			}
		}
	}
	if n == 0 {
		return Inbox{}
	}
	in := Inbox{Unread: n}
	fields, ok := inbox.ReadFields(t, id+"/inbox/"+first)
	if !ok {
		return in
	}
	o := &Oldest{Filename: first, From: fields["from"], AgeMs: max(0, now.UnixMilli()-message.Timestamp(first)), Subject: fields["subject"]}
	if o.From == "" {
		o.From = "unknown"
	}
	in.Oldest = o
	return in
}

// candidate is a file that may make the recent list; its frontmatter is
// read only if it does.
type candidate struct {
	mtime float64
	kind  string
	agent string
	name  string // "" for a status file
}

// newest keeps the n candidates offered with the newest mtimes, newest
// first and equal mtimes in the order offered: what a stable sort of
// them all cut to n gives, without holding every message of the store.
type newest struct {
	n    int
	kept []candidate
}

func (s *newest) offer(c candidate) {
	if len(s.kept) == s.n && (s.n == 0 || c.mtime <= s.kept[len(s.kept)-1].mtime) {
		return
	}
	// After every kept candidate at least as new.
	i, _ := slices.BinarySearchFunc(s.kept, c.mtime, func(k candidate, mtime float64) int {
		if k.mtime >= mtime {
			return -1
		}
		return 1
	})
	s.kept = slices.Insert(s.kept, i, c)
	if len(s.kept) > s.n {
		s.kept = s.kept[:s.n]
	}
}

func recentActivity(t *fsutil.Tree, ids []string, scans []agents.Scan, nowMs float64, topN int) []Activity {
	out := []Activity{}
	if t == nil || topN == 0 {
		return out
	}
	cands := newest{n: topN}
	for i, id := range ids {
		for _, f := range [...]struct {
			entries []agents.Entry
			kind    string
		}{{scans[i].Inbox, KindMessage}, {scans[i].Archive, KindArchive}} {
			for _, e := range f.entries {
				if e.Regular && message.IsCanonical(e.Name) {
					cands.offer(candidate{e.MtimeMs, f.kind, id, e.Name})
				}
			}
		}
		if st := scans[i].Status; st != nil && st.Regular {
			cands.offer(candidate{st.MtimeMs, KindStatus, id, ""})
		}
	}
	for _, c := range cands.kept {
		age := math.Max(0, nowMs-c.mtime)
		if c.kind == KindStatus {
			out = append(out, Activity{Kind: KindStatus, Identity: c.agent, AgeMs: age})
			continue
		}
		from, subject := "unknown", ""
		dir := "inbox"
		if c.kind == KindArchive {
			dir = "archive"
		}
		if fields, ok := inbox.ReadFields(t, c.agent+"/"+dir+"/"+c.name); ok {
			if v, ok := fields["from"]; ok {
				from = v
			}
			subject = fields["subject"]
		}
		out = append(out, Activity{Kind: c.kind, Identity: from, Target: c.agent, AgeMs: age, Filename: c.name, Subject: subject})
	}
	return out
}

// FormatAge renders a duration in ms the way the dashboard does: whole
// seconds under a minute, then minutes, hours, days (floored).
func FormatAge(ms float64) string {
	if ms < 0 || math.IsNaN(ms) {
		ms = 0
	}
	switch {
	case ms < 60_000:
		return itoa(ms/1000) + "s"
	case ms < 3_600_000:
		return itoa(ms/60_000) + "m"
	case ms < 86_400_000:
		return itoa(ms/3_600_000) + "h"
	}
	return itoa(ms/86_400_000) + "d"
}

// itoa floors v and prints it as an integer.
func itoa(v float64) string { return strconv.FormatFloat(math.Floor(v), 'f', -1, 64) }

// Text renders the overview for people. now is the clock for the
// members' ages (computed at print time, as upstream does).
func Text(o Overview, now time.Time) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	line("You are " + o.Identity + ".")
	line("")
	line("Inbox:")
	switch {
	case o.Inbox.Unread == 0:
		line("  (empty)")
	case o.Inbox.Oldest != nil:
		subj := termsafe.Line(o.Inbox.Oldest.Subject)
		if subj == "" {
			subj = "(no subject)"
		}
		line("  " + strconv.Itoa(o.Inbox.Unread) + " new (oldest " + FormatAge(float64(o.Inbox.Oldest.AgeMs)) +
			" ago: " + termsafe.Line(o.Inbox.Oldest.From) + " — \"" + subj + "\")")
	default:
		line("  " + strconv.Itoa(o.Inbox.Unread) + " new")
	}
	attentionSection(line, o.Members, now)
	line("")
	line("Members (" + strconv.Itoa(len(o.Members)) + "):")
	if len(o.Members) == 0 {
		line("  (none)")
	}
	nowMs := float64(now.UnixMilli())
	for _, m := range o.Members {
		s := "  " + pad(m.Identity, 12) + " " + pad(termsafe.Line(m.Status), 10) + " "
		if m.LastActivity != nil {
			s += "last active " + FormatAge(math.Max(0, nowMs-*m.LastActivity)) + " ago"
		} else {
			s += "—"
		}
		s += waitingNote(m.Waiting, nowMs)
		if m.Host != nil {
			s += "  on " + termsafe.Line(m.Host.Name)
			if len(m.AlsoClaimedBy) > 0 {
				s += " (ALSO WRITES ON " + termsafe.Line(strings.Join(m.AlsoClaimedBy, ", ")) + ")"
			}
		}
		line(s)
	}
	if len(o.Hosts) > 0 {
		line("")
		line("Hosts:")
		for _, h := range o.Hosts {
			line("  " + termsafe.Line(h.Ago(now)))
		}
	}
	line("")
	line("Recent activity:")
	if len(o.Recent) == 0 {
		line("  (none)")
	}
	for _, r := range o.Recent {
		line("  " + pad(FormatAge(r.AgeMs), 5) + " " + termsafe.Line(activityLine(r)))
	}
	return b.String()
}

func activityLine(r Activity) string {
	what := r.Subject
	if what == "" {
		what = r.Filename
	}
	switch r.Kind {
	case KindMessage:
		return r.Identity + " → " + r.Target + " — " + what
	case KindArchive:
		return "archive " + r.Identity + " → " + r.Target + " — " + what
	}
	return r.Identity + " status changed"
}

// pad right-pads s with spaces to width characters (UTF-16 units, as
// JavaScript counts them), never truncating.
func pad(s string, width int) string {
	n := 0
	for _, r := range s {
		n++
		if r > 0xffff {
			n++
		}
	}
	if n >= width {
		return s
	}
	return s + strings.Repeat(" ", width-n)
}
