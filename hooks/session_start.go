package hooks

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/termsafe"
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

// nowMD is what a hook read of now.md: the whole file, or (when it is
// bigger than the hook could ever print) its head and tail joined, with
// the file's real size so a cut can say how much is missing.
type nowMD struct {
	data []byte
	size int
}

// freshNow reads agent id's now.md when it is a regular file in the
// store (read through the confined tree: a symlink, FIFO or folder there
// reads as absent) with a positive mtime younger than the
// ST_REHYDRATE_STALE_S window: unset or empty means a day, a decimal
// integer that many seconds, anything else that nothing is fresh. Only
// budget bytes of its head and of its tail are read: a hook never prints
// more than budget, whatever the file's size.
func freshNow(root, id, window string, now time.Time, budget int) (nowMD, bool) {
	if id == "" {
		return nowMD{}, false
	}
	win := int64(defaultStaleS)
	if window != "" {
		if !jsstr.IsDigits(strings.TrimPrefix(window, "-")) { // /^-?\d+$/
			return nowMD{}, false
		}
		n, err := strconv.ParseInt(window, 10, 64)
		if err != nil {
			return nowMD{}, false
		}
		win = n
	}
	t, err := fsutil.Open(root)
	if err != nil {
		return nowMD{}, false
	}
	defer t.Close()
	data, fi, err := t.ReadHeadTail(agentctx.NowPath(id), int64(max(budget, MinBudget)))
	if err != nil || fi.ModTime().Unix() <= 0 {
		return nowMD{}, false
	}
	age := now.Unix() - fi.ModTime().Unix()
	if age < 0 || age >= win {
		return nowMD{}, false
	}
	return nowMD{data, int(fi.Size())}, true
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
	if opt.Agent == "" {
		// Fail open: with a user-scope install every session
		// runs this hook; without an agent the ritual could only fail.
		return Result{}
	}
	text := sessionStartText(opt, ContextBudget(ClaudeCode, opt.ContextBudget, opt.ConfigDir))
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

// sessionStartText is the now.md block, the inbox summary (--inbox),
// the fleet brief (brief.go) and the ritual line, in at most budget bytes
// (context_budget.go): the brief takes at most a quarter of it.
func sessionStartText(opt Options, budget int) string {
	brief := fleetBrief(opt, budget/briefShare)
	text := sessionStartBody(opt, budget-len(brief))
	return strings.TrimSuffix(text, RitualLine) + brief + RitualLine
}

// sessionStartBody is the now.md block, the inbox summary and the ritual
// line, in at most budget bytes.
func sessionStartBody(opt Options, budget int) string {
	var items []item
	if opt.Inbox {
		items, _ = listInbox(opt.Root, opt.Agent, -1)
	}
	now, fresh := freshNow(opt.Root, opt.Agent, opt.RehydrateStaleS, opt.Now(), budget)
	data := now.data
	block := func(data []byte) string {
		if !fresh {
			return ""
		}
		return contextBlock(opt.Agent, data, "\n\n")
	}
	summary := inboxSummary(items, -1)
	text := block(data) + summary + RitualLine
	if len(text) <= budget {
		return text
	}
	avail := budget - len(RitualLine)
	_, inboxMax := splitBudget(avail, len(block(data)), len(summary))
	summary = inboxSummary(items, inboxMax)
	if fresh {
		frame := len(block(nil)) + 1 // +1: the newline added after a cut file
		data = cutMiddleOf(data, now.size, avail-len(summary)-frame, nowMDPath(opt.Root, opt.Agent))
	}
	return block(data) + summary + RitualLine
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

// inboxSummary describes the unread inbox for session-start --inbox:
// the count, then the newest few as filename, sender, subject, in at most
// limit bytes (< 0: no limit; lines that do not fit join the "older"
// count). No items, or not even the count fitting, gives "".
func inboxSummary(items []item, limit int) string {
	if len(items) == 0 {
		return ""
	}
	header := fmt.Sprintf("## st inbox (%d unread)\n", len(items))
	var lines []string
	for i := len(items) - 1; i >= 0 && len(lines) < inboxShown; i-- {
		lines = append(lines, itemLine(items[i], maxSubject)+"\n")
	}
	older := func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("- … and %d older (`st message ls`)\n", n)
	}
	size := func(k int) int {
		n := len(header) + len(older(len(items)-k)) + 1
		for _, l := range lines[:k] {
			n += len(l)
		}
		return n
	}
	k := len(lines)
	if limit >= 0 {
		k = fitCount(len(lines), size, limit)
	}
	if k < 0 {
		return ""
	}
	return header + strings.Join(lines[:k], "") + older(len(items)-k) + "\n"
}

// itemLine is "- <filename>  <from>[  Subject: <subject>]", the codex
// hooks' inbox line; max > 0 shortens a long subject. Every part came
// from a sender (or a peer's file name): control characters are escaped,
// so none of them forges a line of st's own in the model's context.
func itemLine(it item, max int) string {
	from := "unknown"
	if it.From != nil {
		from = *it.From
	}
	line := "- " + termsafe.Line(it.Filename) + "  " + termsafe.Line(from)
	if it.Subject != nil {
		s := *it.Subject
		if max > 0 && len(s) > max {
			cut := max
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			s = s[:cut] + "…"
		}
		line += "  Subject: " + termsafe.Line(s)
	}
	return line
}
