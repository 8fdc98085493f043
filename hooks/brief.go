package hooks

import (
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/stackstart"
	"github.com/smalltalk-go/st/internal/termsafe"
)

// The fleet brief: a few lines at session start about what a person or
// a coordinating agent should know of the fleet (who waits on a human
// and for what, who an API error stopped, who thrashes or is busy but
// silent, which hosts are stale, which messages ask this agent for an
// acknowledgement), with counts for the rest. In auto mode (the default)
// it appears only when there is such a thing; always gives the counts
// anyway; off never. The groups are attention's, the same as the board's
// and `st overview`'s.

// briefShare is the brief's part of the session-start budget: at most a
// quarter, so now.md and the inbox keep the rest.
const briefShare = 4

// briefAgentsShown is how many agents needing a person the brief names;
// the others are counted.
const briefAgentsShown = 8

// briefAcksShown is how many unacknowledged messages it names.
const briefAcksShown = 3

// fleetView is what the brief is written from.
type fleetView struct {
	self    string
	members []agents.Enriched // attended (agents.Attend), in attention order
	hosts   []fleet.Host
	unacked []string // messages asking self for an acknowledgement, oldest first
}

// readFleet reads the fleet for the brief: every other agent attended as
// the overview does, the hosts and the agent's unacknowledged messages.
func readFleet(t *fsutil.Tree, opt Options, now time.Time) fleetView {
	list := agents.List(t, now, agents.Options{Mailbox: opt.Config.Recipient(opt.Operator), Except: opt.Agent})
	f := fleet.Read(t, fleet.Local(opt.FleetHost), now, fleet.ParseStaleAfter(opt.SyncStaleS))
	agents.SetHosts(list, f)
	members := agents.AttendFleet(t, list, now)
	agents.SortByAttention(members)
	return fleetView{self: opt.Agent, members: members, hosts: f.Hosts, unacked: briefUnacked(t, opt)}
}

// briefWait bounds the brief's reading of the fleet: a big fleet on a
// loaded machine must not cost the session its now.md and inbox, which
// a hook past its deadline would drop. Past it, or past half the time
// the hook has left, the session starts without a brief.
const briefWait = 600 * time.Millisecond

// fleetBrief is the brief for opt's agent in at most limit bytes, or ""
// (off, nothing to say in auto mode, a store that cannot be read, or no
// brief within briefWait).
func fleetBrief(opt Options, limit int) string {
	mode := opt.Config.Brief
	if mode == BriefOff || opt.Agent == "" || limit <= 0 {
		return ""
	}
	wait := briefWait
	if !opt.deadline.IsZero() {
		wait = min(wait, time.Until(opt.deadline)/2)
	}
	done := make(chan string, 1)
	go func() {
		stackstart.GrowDeep()
		defer func() {
			if recover() != nil {
				done <- ""
			}
		}()
		t, err := fsutil.Open(opt.Root)
		if err != nil {
			done <- ""
			return
		}
		defer t.Close()
		now := opt.now()
		done <- briefText(readFleet(t, opt, now), mode == BriefAlways, now, limit)
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case s := <-done:
		return s
	case <-timer.C:
		return ""
	}
}

// briefText writes the brief of v: a header with the counts, then one
// line per agent needing a person (not the agent itself: its own last
// session's state is news to nobody), per stale host and for the
// unacknowledged messages, in at most limit bytes (lines that do not fit
// are counted in a last line). Without always, "" when none of those
// lines exists.
func briefText(v fleetView, always bool, now time.Time, limit int) string {
	var lines []string
	counts := map[string]int{}
	need, others := 0, 0
	for _, m := range v.members {
		if m.Identity == v.self {
			continue
		}
		others++
		if m.Attention == nil {
			counts[m.Group()]++
			continue
		}
		need++
		if need <= briefAgentsShown {
			lines = append(lines, termsafe.Line(briefAgentLine(m, now)))
		}
	}
	if need > briefAgentsShown {
		lines = append(lines, "- … and "+strconv.Itoa(need-briefAgentsShown)+" more need a person (`st overview`)")
	}
	stale := 0
	for _, h := range v.hosts {
		if h.Stale {
			stale++
			lines = append(lines, "- host "+h.Ago(now))
		}
	}
	if n := len(v.unacked); n > 0 {
		shown := v.unacked[:min(n, briefAcksShown)]
		l := "- " + plural(n, "message asks", "messages ask") + " you for an acknowledgement: " + strings.Join(shown, ", ")
		if n > len(shown) {
			l += ", …"
		}
		lines = append(lines, termsafe.Line(l)+" (`st message ack <file>` once done)")
	}
	if len(lines) == 0 && !always {
		return ""
	}
	header := "## st fleet: " + plural(others, "other agent", "other agents")
	if len(v.hosts) > 0 {
		header += " on " + plural(len(v.hosts), "host", "hosts")
	}
	var parts []string
	if need > 0 {
		parts = append(parts, strconv.Itoa(need)+" need a person")
	}
	for _, g := range attention.Groups {
		if n := counts[g.Key]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+g.Label)
		}
	}
	if stale > 0 {
		parts = append(parts, plural(stale, "stale host", "stale hosts"))
	}
	if len(parts) > 0 {
		header += " (" + strings.Join(parts, ", ") + ")"
	}
	header += "\n"
	size := func(k int) int {
		n := len(header) + 1
		for _, l := range lines[:k] {
			n += len(l) + 1
		}
		if k < len(lines) {
			n += len(briefCut(len(lines)-k)) + 1
		}
		return n
	}
	k := fitCount(len(lines), size, limit)
	if k < 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(header)
	for _, l := range lines[:k] {
		b.WriteString(l + "\n")
	}
	if k < len(lines) {
		b.WriteString(briefCut(len(lines)-k) + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// briefAgentLine is one agent needing a person: who, why, since when,
// and where to go.
func briefAgentLine(m agents.Enriched, now time.Time) string {
	at := m.Attention
	l := "- " + m.Identity + " " + at.Label
	if t, err := time.Parse(time.RFC3339Nano, at.Since); err == nil {
		l += " (" + shortAge(now.Sub(t)) + ")"
	}
	if at.Detail != "" {
		l += ": " + at.Detail
	}
	if at.Where != nil && !at.Where.Empty() {
		l += " — go to " + at.Where.String()
	}
	return l
}

// briefCut counts the brief's lines the budget left out.
func briefCut(n int) string {
	return "- … " + plural(n, "more line", "more lines") + " left out (`st overview`)"
}

// shortAge is a duration as 45s, 12m, 3h or 2d.
func shortAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(max(0, int(d/time.Second))) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}

// plural is "1 thing" or "<n> things".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// withBrief adds the brief after Codex's session-start text, a blank
// line between (the brief ends in one already).
func withBrief(text, brief string) string {
	brief = strings.TrimSuffix(brief, "\n\n")
	if text == "" || brief == "" {
		return text + brief
	}
	return text + "\n\n" + brief
}
