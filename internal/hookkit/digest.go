package hookkit

import (
	"fmt"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
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
			if editTools[e.Tool] && e.Path != "" && !seen[e.Path] && len(files) < DigestFiles {
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
	b.WriteString("## Activity since now.md was last written (from st events)\n")
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
