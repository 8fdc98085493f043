package dashboard

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// The timeline reads only the ends of an agent's newest logs: at most
// timelineFiles logs, timelineTail bytes of each, timelineBudget in all,
// whatever their size. It keeps the newest timelineKeep events for the
// chart and lists the newest timelineShow of them.
const (
	timelineFiles  = 8
	timelineTail   = 512 << 10
	timelineBudget = 2 << 20
	timelineKeep   = 1000
	timelineShow   = 200
	chartBuckets   = 60
)

// Event kinds the timeline distinguishes (CSS classes too).
const (
	kindTool       = "tool"
	kindFailure    = "failure"
	kindCompaction = "compaction"
	kindAPIError   = "api-error"
	kindRetry      = "retry"
	kindWaiting    = "waiting"
	kindSession    = "session"
)

// Entry is one event on the timeline.
type Entry struct {
	Time    time.Time
	Event   string
	Kind    string
	Session string // first 8 characters
	Detail  string // tool, path or command, notification title…
	Error   string
}

// Bar is one rectangle of the activity chart, in the SVG's user units.
type Bar struct {
	X, Y, W, H float64
	Kind       string
	Title      string
}

// Timeline is an agent's recent hook events and their activity chart.
type Timeline struct {
	Entries []Entry // newest first, at most timelineShow
	Total   int     // events read
	Counts  map[string]int
	From    time.Time
	To      time.Time
	Bars    []Bar
	Partial bool // older events exist beyond what was read
}

// readTimeline reads the tails of agent's newest logs.
func readTimeline(t *fsutil.Tree, agent string) Timeline {
	type logFile struct {
		rel  string
		mod  time.Time
		size int64
	}
	var logs []logFile
	all, _ := events.Logs(t, agent) // an unreadable folder shows no timeline
	for _, l := range all {
		logs = append(logs, logFile{events.Dir(agent) + "/" + l.Name, l.ModTime, l.Size})
	}
	slices.SortFunc(logs, func(a, b logFile) int { return b.mod.Compare(a.mod) })
	var tl Timeline
	var evs []events.Event
	budget := int64(timelineBudget)
	for i, l := range logs {
		if i == timelineFiles || budget <= 0 || len(evs) >= timelineKeep {
			tl.Partial = true
			break
		}
		n := min(budget, timelineTail)
		got, err := events.TailFile(t, l.rel, n)
		if err != nil {
			continue
		}
		if l.size > n {
			tl.Partial = true
		}
		budget -= min(l.size, n)
		evs = append(evs, got...)
	}
	slices.SortStableFunc(evs, func(a, b events.Event) int { return cmp.Compare(a.TS, b.TS) })
	if len(evs) > timelineKeep {
		evs = evs[len(evs)-timelineKeep:]
		tl.Partial = true
	}
	tl.Total = len(evs)
	tl.Counts = map[string]int{}
	entries := make([]Entry, len(evs))
	for i := range evs {
		entries[i] = entryOf(&evs[i])
		tl.Counts[entries[i].Kind]++
	}
	if len(entries) > 0 {
		tl.From, tl.To = entries[0].Time, entries[len(entries)-1].Time
		tl.Bars = chart(entries, tl.From, tl.To)
	}
	slices.Reverse(entries)
	tl.Entries = entries[:min(len(entries), timelineShow)]
	return tl
}

// entryOf classifies one event for the timeline.
func entryOf(e *events.Event) Entry {
	at, _ := e.Time()
	en := Entry{Time: at, Event: e.Event, Session: events.Cap(e.Session, 8), Error: e.Error, Kind: kindSession}
	switch e.Event {
	case "PreToolUse", "PostToolUse":
		en.Kind = kindTool
	case "PostToolUseFailure":
		en.Kind = kindFailure
	case "PreCompact", "PostCompact":
		en.Kind = kindCompaction
	case "StopFailure":
		en.Kind = kindAPIError
		if e.Attempt > 0 {
			en.Kind = kindRetry
		}
	case "Notification":
		if _, ok := events.WaitingOn([]events.Event{*e}); ok {
			en.Kind = kindWaiting
		}
	}
	if e.Error != "" && en.Kind == kindTool {
		en.Kind = kindFailure
	}
	var parts []string
	for _, s := range []string{e.Tool, e.Path, e.Command, e.Type, e.Title, e.Message, e.Advice} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if e.Attempt > 0 {
		parts = append(parts, "attempt "+strconv.Itoa(e.Attempt))
	}
	en.Detail = events.Cap(strings.Join(parts, " · "), 300)
	return en
}

// Chart geometry, in SVG user units (the SVG scales to its box).
const (
	chartW = 600.0
	chartH = 60.0
)

// chart stacks per-bucket counts: problems (failures, API errors,
// retries) at the bottom, then tool calls, then everything else.
func chart(entries []Entry, from, to time.Time) []Bar {
	span := to.Sub(from)
	if span <= 0 {
		span = time.Second
	}
	type bucket struct{ problem, tool, other int }
	var bs [chartBuckets]bucket
	for _, e := range entries {
		i := int(float64(e.Time.Sub(from)) / float64(span) * chartBuckets)
		i = min(max(i, 0), chartBuckets-1)
		switch e.Kind {
		case kindFailure, kindAPIError, kindRetry:
			bs[i].problem++
		case kindTool:
			bs[i].tool++
		default:
			bs[i].other++
		}
	}
	peak := 1
	for _, b := range bs {
		peak = max(peak, b.problem+b.tool+b.other)
	}
	w := chartW / chartBuckets
	var bars []Bar
	for i, b := range bs {
		start := from.Add(time.Duration(float64(span) * float64(i) / chartBuckets))
		title := start.UTC().Format("15:04:05") + ": " + strconv.Itoa(b.tool) + " tool, " +
			strconv.Itoa(b.problem) + " failed, " + strconv.Itoa(b.other) + " other"
		y := chartH
		for _, part := range []struct {
			n    int
			kind string
		}{{b.problem, "problem"}, {b.tool, kindTool}, {b.other, "other"}} {
			if part.n == 0 {
				continue
			}
			h := chartH * float64(part.n) / float64(peak)
			y -= h
			bars = append(bars, Bar{X: float64(i)*w + 0.5, Y: y, W: w - 1, H: h, Kind: part.kind, Title: title})
		}
	}
	return bars
}
