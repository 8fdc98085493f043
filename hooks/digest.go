package hooks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// Digest limits.
const (
	DigestFiles    = 20
	DigestCommands = 5
	DigestFailures = 5
)

// DigestBytes bounds how much of the session's log the digest reads.
const DigestBytes = 4 << 20

// Digest summarises a session's events since now.md was last written
// (since; zero for all): files edited or written, newest first (at most
// 20), the last few commands and the last failures. It returns "" when
// there is nothing to report. pre-compact adds it below its stub or
// marker.
func Digest(evs []events.Event, since time.Time) string {
	var files, commands, failures []string
	seen := map[string]bool{}
	for i := len(evs) - 1; i >= 0; i-- {
		e := &evs[i]
		if t, ok := e.Time(); !ok || t.Before(since) {
			continue
		}
		switch e.Event {
		case "PostToolUse":
			if isEditTool(e.Tool) && e.Path != "" && !seen[e.Path] && len(files) < DigestFiles {
				seen[e.Path] = true
				files = append(files, e.Path)
			}
			if e.Command != "" && len(commands) < DigestCommands {
				commands = append(commands, e.Command)
			}
		case "PostToolUseFailure":
			if len(failures) < DigestFailures && !e.Interrupt {
				what := e.Command
				if what == "" {
					what = e.Path
				}
				failures = append(failures, strings.TrimSpace(fmt.Sprintf("%s %s: %s", e.Tool, oneLine(what), e.Error)))
			}
		}
	}
	if len(files)+len(commands)+len(failures) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(digestHead + " (from st events)\n")
	section := func(title string, items []string, code bool) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, it := range items {
			if code {
				fmt.Fprintf(&b, "- `%s`\n", strings.ReplaceAll(oneLine(it), "`", "'"))
			} else {
				fmt.Fprintf(&b, "- %s\n", oneLine(it))
			}
		}
	}
	section("Files edited or written (newest first)", files, false)
	section("Last commands (newest first)", commands, true)
	section("Failures (newest first)", failures, false)
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// DigestFor builds the pre-compact digest for agent from its session
// logs written since now.md's last write (since; zero when now.md was
// never written: the latest session log only).
func DigestFor(t *fsutil.Tree, agent string, since time.Time) string {
	if t == nil {
		return ""
	}
	var rels []string
	if since.IsZero() {
		if rel, _, ok := events.Latest(t, agent); ok {
			rels = []string{rel}
		}
	} else if names, err := events.WrittenSince(t, agent, since); err == nil {
		for _, name := range names {
			rels = append(rels, events.Dir(agent)+"/"+name)
		}
	}
	var all []events.Event
	for _, rel := range rels {
		evs, err := events.TailFile(t, rel, DigestBytes)
		if err != nil {
			continue
		}
		all = append(all, evs...)
	}
	sortEvents(all)
	return Digest(all, since)
}

// sortEvents orders events by time, keeping each file's order for
// equal stamps.
func sortEvents(evs []events.Event) {
	slices.SortStableFunc(evs, func(a, b events.Event) int { return strings.Compare(a.TS, b.TS) })
}
