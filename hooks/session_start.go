package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// RitualLine ends every session-start output.
const RitualLine = "Run the st boot ritual: set status to available and drain inbox (read → reply → archive).\n"

// MaxText bounds the text session-start hands Claude Code, which spills
// any output string of 10,000 characters or more to a file. Lengths are
// counted in bytes, which is never less than JavaScript's UTF-16 count.
const MaxText = 9999

// inboxShown is how many of the newest unread messages --inbox lists.
const inboxShown = 5

// maxSubject bounds one subject in the --inbox summary.
const maxSubject = 200

const defaultStaleS = 86400

// freshNow returns now.md's bytes when agent id has a regular now.md
// (symlinks followed) with a positive mtime younger than the
// ST_REHYDRATE_STALE_S window: unset or empty means a day, a decimal
// integer that many seconds, anything else that nothing is fresh.
func freshNow(root, id, window string, now time.Time) ([]byte, bool) {
	if id == "" {
		return nil, false
	}
	win := int64(defaultStaleS)
	if window != "" {
		if !jsstr.IsDigits(strings.TrimPrefix(window, "-")) { // /^-?\d+$/
			return nil, false
		}
		n, err := strconv.ParseInt(window, 10, 64)
		if err != nil {
			return nil, false
		}
		win = n
	}
	p := filepath.Join(root, id, "context", "now.md")
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Unix() <= 0 {
		return nil, false
	}
	age := now.Unix() - fi.ModTime().Unix()
	if age < 0 || age >= win {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	return data, true
}

// contextBlock frames now.md for the model; trailer follows </context>.
func contextBlock(id string, data []byte, trailer string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<context source=\"st/context/now.md\" agent=\"%s\">\n", id)
	b.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("</context>")
	b.WriteString(trailer)
	return b.String()
}

func runSessionStart(opt Options) Result {
	now := opt.Now()
	summary := ""
	if opt.Inbox && opt.Agent != "" {
		summary = inboxSummary(opt.Root, opt.Agent)
	}
	text := summary + RitualLine
	if data, ok := freshNow(opt.Root, opt.Agent, opt.RehydrateStaleS, now); ok {
		frame := len(contextBlock(opt.Agent, nil, "\n\n")) + 1
		data = cutMiddle(data, MaxText-len(text)-frame)
		text = contextBlock(opt.Agent, data, "\n\n") + text
	}
	return sessionStartResult(text, opt.JSON)
}

// sessionStartResult is session-start's output of text: on stderr with
// exit 2 (the wake-up), or with --json as hookSpecificOutput on stdout,
// exit 0.
func sessionStartResult(text string, asJSON bool) Result {
	if asJSON {
		out, err := jsstr.Marshal(claudeContext("SessionStart", text))
		if err != nil {
			return Result{}
		}
		return Result{Stdout: append(out, '\n')}
	}
	return Result{Stderr: []byte(text), Code: 2}
}

// claudeContext is Claude Code's hookSpecificOutput carrying context.
func claudeContext(event, text string) any {
	type hso struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	return struct {
		HookSpecificOutput hso `json:"hookSpecificOutput"`
	}{hso{event, text}}
}

// cutMiddle shortens data to at most max bytes by replacing its middle
// with a marker line, keeping the head and the tail on UTF-8 boundaries.
func cutMiddle(data []byte, max int) []byte {
	if len(data) <= max {
		return data
	}
	if max < 0 {
		max = 0
	}
	marker := func(n int) string {
		return fmt.Sprintf("\n[… st: %d bytes of now.md cut here; `st context read` prints all of it …]\n", n)
	}
	keep := max - len(marker(len(data)))
	if keep < 0 {
		keep = 0
	}
	head := keep / 2
	for head > 0 && !utf8.RuneStart(data[head]) {
		head--
	}
	tail := len(data) - (keep - head)
	for tail < len(data) && !utf8.RuneStart(data[tail]) {
		tail++
	}
	out := make([]byte, 0, max)
	out = append(out, data[:head]...)
	out = append(out, marker(tail-head)...)
	return append(out, data[tail:]...)
}

// inboxSummary describes the agent's unread inbox for session-start
// --inbox: the count, then the newest few as filename, sender, subject.
// An empty or unreadable inbox gives "".
func inboxSummary(root, id string) string {
	items, err := listInbox(root, id, -1)
	if err != nil || len(items) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## st inbox (%d unread)\n", len(items))
	shown := 0
	for i := len(items) - 1; i >= 0 && shown < inboxShown; i-- {
		b.WriteString(itemLine(items[i], maxSubject))
		b.WriteByte('\n')
		shown++
	}
	if rest := len(items) - shown; rest > 0 {
		fmt.Fprintf(&b, "- … and %d older (`st message ls`)\n", rest)
	}
	b.WriteByte('\n')
	return b.String()
}

// itemLine is "- <filename>  <from>[  Subject: <subject>]", the codex
// hooks' inbox line; max > 0 shortens a long subject.
func itemLine(it item, max int) string {
	from := "unknown"
	if it.From != nil {
		from = *it.From
	}
	line := "- " + it.Filename + "  " + from
	if it.Subject != nil {
		s := *it.Subject
		if max > 0 && len(s) > max {
			cut := max
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			s = s[:cut] + "…"
		}
		line += "  Subject: " + s
	}
	return line
}
