package wiring

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smalltalk-go/st/hooks"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// Entry is one hook handler st wires into a harness's settings. The list
// of entries is data so that installing a larger set (matchers, timeouts)
// is a matter of adding rows.
type Entry struct {
	Event       string   // the harness event, e.g. "SessionStart"
	Hook        string   // the `st hook` event, e.g. "session-start"
	Args        []string // arguments after the event, e.g. "--json"
	Matcher     string   // "" = no matcher (every occurrence)
	Async       bool     // Claude Code: run in the background
	AsyncRewake bool     // Claude Code: exit 2 wakes an idle conversation
	Timeout     int      // in the client's TimeoutUnit; 0 = the harness default
	Name        string   // Gemini CLI: the handler's name, what /hooks disable takes
}

// claudeSessionStartArgs are how every install wires SessionStart: in
// the foreground, with the context as hookSpecificOutput on stdout.
// Claude Code (2.1.328, e2e/claudecode) puts that into the session's
// first request; the older async form, exit 2 with the text on stderr,
// reached the model only in a second, woken turn and was reported as a
// hook error (DoctorSessionStart fails it). The entry is spelled out in
// each list that has it, so that the lists are data the binary carries
// rather than values copied at every start.
var claudeSessionStartArgs = []string{"--json", "--inbox"}

// ClaudeEntries are the Claude Code hooks `st hooks install` wires.
var ClaudeEntries = []Entry{
	{Event: "SessionStart", Hook: hooks.SessionStart, Args: claudeSessionStartArgs, Timeout: 5},
	{Event: "PreCompact", Hook: hooks.PreCompact},
	{Event: "StopFailure", Hook: hooks.StopFailure},
}

// CodexEntries are the Codex hooks `st hooks install --for codex` wires.
var CodexEntries = []Entry{
	{Event: "SessionStart", Hook: hooks.CodexSessionStart, Timeout: 5},
	{Event: "Stop", Hook: hooks.CodexStop, Timeout: 5},
	{Event: "PreToolUse", Hook: hooks.CodexPreToolUse, Matcher: CodexPreToolUseMatcher, Timeout: 5},
}

// CodexPreToolUseMatcher is the tools codex-pre-tool-use looks at:
// Codex 0.169 names its file edits apply_patch, or Bash when the model
// runs apply_patch in the shell (CodexEditTools).
const CodexPreToolUseMatcher = "apply_patch|Bash"

// EntriesFor returns the entries of a family (none for pi).
func EntriesFor(family string) []Entry {
	c, _ := ClientFor(family)
	return c.Entries
}

// Command is the shell command line that runs the entry with stBin.
func (e Entry) Command(stBin string) string {
	words := append([]string{ShellQuote(stBin), "hook", e.Hook}, e.Args...)
	return strings.Join(words, " ")
}

// Handler is the entry's handler object, keys in upstream's order.
func (e Entry) Handler(stBin string) *jsonobj.Object {
	h := jsonobj.New()
	if e.Name != "" {
		h.Set("name", e.Name)
	}
	h.Set("type", "command")
	if e.Async {
		h.Set("async", true)
	}
	if e.AsyncRewake {
		h.Set("asyncRewake", true)
	}
	h.Set("command", e.Command(stBin))
	if e.Timeout > 0 {
		h.Set("timeout", json.Number(strconv.Itoa(e.Timeout)))
	}
	return h
}

// Group is the matcher group holding the entry's handler.
func (e Entry) Group(stBin string) *jsonobj.Object {
	g := jsonobj.New()
	if e.Matcher != "" {
		g.Set("matcher", e.Matcher)
	}
	g.Set("hooks", []any{e.Handler(stBin)})
	return g
}

// shellSafe are the bytes that need no quoting in a command line.
func shellSafe(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		strings.IndexByte("_./:@%+=,-", c) >= 0
}

// ShellQuote returns s as one sh word: verbatim when it holds only
// [A-Za-z0-9_./:@%+=,-], else in single quotes.
func ShellQuote(s string) string {
	safe := s != ""
	for i := 0; i < len(s) && safe; i++ {
		safe = shellSafe(s[i])
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellWords splits a command line into words, honouring single and
// double quotes and backslashes; enough to read commands we wrote and the
// common hand-written ones.
func ShellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
			} else {
				cur.WriteString(s[i+1 : i+1+j])
				i += j + 1
			}
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// OursEvent returns the st hook event a command line runs when it is one
// of ours: "<st> hook <event> …" where <st> is stBin or any file named st
// or smalltalk (so entries written by another copy of st are recognised).
func OursEvent(command, stBin string) (string, bool) {
	w := ShellWords(command)
	if len(w) < 3 || w[1] != "hook" || !hooks.IsEvent(w[2]) {
		return "", false
	}
	base := filepath.Base(w[0])
	if w[0] != stBin && base != "st" && base != "smalltalk" {
		return "", false
	}
	return w[2], true
}
