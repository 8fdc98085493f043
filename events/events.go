// Package events keeps the per-session hook event log:
// $ST_ROOT/<agent>/events/<session_id>.jsonl, one JSON object per line.
//
// Writers are `st hook <event>` processes, many at once (Claude Code runs
// matching hooks in parallel). Each appends one line through
// fsutil.AppendLine: an flock, one O_APPEND write, and a repair of a torn
// last line, so the cost is constant whatever the log's size and no line
// is lost or interleaved. Readers skip a last line without "\n" and any
// line that is not a JSON object. One file per session keeps the folder
// safe to sync: two machines never append to the same file.
//
// A line never holds a prompt or a tool's output: only names, paths, the
// first 200 characters of a command, sizes, error types and durations.
package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"iter"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// Dir is the events folder of an agent, relative to the store root.
func Dir(agent string) string { return agent + "/events" }

// NoSession names the log of events whose payload carries no usable
// session id.
const NoSession = "no-session"

// Ext ends every log file name.
const Ext = ".jsonl"

// maxSessionLen caps a session id used as a file name.
const maxSessionLen = 128

// ValidSession reports whether id is safe as a file name: 1 to 128
// characters from [A-Za-z0-9._-], not starting with "." or "-".
func ValidSession(id string) bool {
	if id == "" || len(id) > maxSessionLen || id[0] == '.' || id[0] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// FileName is the log file name for a session id: <id>.jsonl, or
// no-session.jsonl when the id is empty or unsafe.
func FileName(session string) string {
	if !ValidSession(session) {
		return NoSession + Ext
	}
	return session + Ext
}

// Path is the log of one session of an agent, relative to the root.
func Path(agent, session string) string { return Dir(agent) + "/" + FileName(session) }

// Event is one line of the log. Fields beyond TS, Event and Session are
// set only when they matter for the event.
type Event struct {
	TS      string `json:"ts"`      // UTC, ISO 8601 with milliseconds
	Event   string `json:"event"`   // Claude Code's event name, e.g. PostToolUse
	Session string `json:"session"` // the payload's session_id ("" when none)

	// AgentID and AgentType are set on the lines of hooks that fire
	// inside a subagent, and on SubagentStart and SubagentStop: the
	// subagent's id ties its lines to its start and end.
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
	Tool      string `json:"tool,omitempty"`
	Path      string `json:"path,omitempty"`    // file_path, notebook_path or path of the tool input
	Command   string `json:"command,omitempty"` // first 200 characters of a Bash command
	Input     string `json:"input,omitempty"`   // short hash of the tool input (same input, same hash)
	Bytes     int64  `json:"bytes,omitempty"`   // size of the tool response, or of the prompt
	ToolMS    int64  `json:"tool_ms,omitempty"` // the tool's duration as reported by Claude Code
	Error     string `json:"error,omitempty"`   // error type or first line of the error, capped
	Interrupt bool   `json:"interrupt,omitempty"`
	Type      string `json:"type,omitempty"`     // notification type, SessionStart source, SessionEnd reason, PreCompact trigger
	Title     string `json:"title,omitempty"`    // notification title, capped
	Message   string `json:"message,omitempty"`  // notification message, capped
	Advice    string `json:"advice,omitempty"`   // what the hook told the model, by name (e.g. context-80)
	Attempt   int    `json:"attempt,omitempty"`  // stop-failure retry attempt
	RetryAt   string `json:"retry_at,omitempty"` // stop-failure: when the next retry is due (ts format)
	// CtxTokens is how full the context window was at the last assistant
	// turn (Claude Code: its usage, input plus cache writes and reads;
	// Codex: the last response's total tokens) and Model that turn's
	// model, read from the transcript's tail at PostToolUse, Stop and
	// PreCompact; unset when the transcript did not tell. CtxWindow is
	// the model's window when the client wrote it down (Codex's rollout
	// does; Claude Code's transcript does not).
	CtxTokens int64  `json:"ctx_tokens,omitempty"`
	CtxWindow int64  `json:"ctx_window,omitempty"`
	Model     string `json:"model,omitempty"`
	// Transcript is the transcript a Stop read without finding the reply
	// its payload names (Claude Code writes that reply while Stop runs):
	// whoever shows the fill reads it there later (hooks.PendingFill)
	// rather than the hook waiting for the client.
	Transcript string `json:"transcript,omitempty"`
	// Cwd, Host and Pane say where a person finds the agent: the
	// session's project folder, the host the hook ran on and the tmux
	// pane (TMUX_PANE) it runs in; set on the events after which someone
	// may have to go there (SessionStart, Notification, StopFailure).
	Cwd  string `json:"cwd,omitempty"`
	Host string `json:"host,omitempty"`
	Pane string `json:"pane,omitempty"`
	// Via names what recorded the line when it was not a client's hook:
	// "mcp" for a tool call st mcp served to a client without hooks.
	Via string `json:"via,omitempty"`
	// Judge is the stop judge's answer at a Stop: its probability that
	// the turn ended early as written, or "failed" or "timeout".
	Judge  string `json:"judge,omitempty"`
	HookUS int64  `json:"hook_us"` // the hook's own duration, microseconds
}

// TimeFormat is the layout of Event.TS.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Stamp formats t for Event.TS.
func Stamp(t time.Time) string { return t.UTC().Format(TimeFormat) }

// Time parses Event.TS; ok is false when it is malformed.
func (e *Event) Time() (time.Time, bool) {
	t, err := time.Parse(TimeFormat, e.TS)
	return t, err == nil
}

// Cap cuts s to at most n characters (runes), never splitting one, and
// drops invalid UTF-8.
func Cap(s string, n int) string {
	s = strings.ToValidUTF8(s, "")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n {
			break
		}
		k++
	}
	return s[:i]
}

// FirstLine returns the first line of s, without its line break.
func FirstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// Append adds e to its session's log under agent, creating the events
// folder when it is missing. It never reads the log.
func Append(ctx context.Context, t *fsutil.Tree, agent string, e *Event) error {
	line, err := Marshal(e)
	if err != nil {
		return err
	}
	rel := Path(agent, e.Session)
	err = t.AppendLine(ctx, rel, line)
	if errors.Is(err, fs.ErrNotExist) {
		if err := t.MkdirAll(Dir(agent)); err != nil {
			return err
		}
		err = t.AppendLine(ctx, rel, line)
	}
	return err
}

// Parse decodes one log line (without its "\n"); ok is false for a line
// that is not a JSON object with a timestamp and an event name, such as
// the NUL run a crash can leave.
func Parse(line []byte) (Event, bool) {
	var e Event
	ok := parseInto(line, &e)
	return e, ok
}

// parseInto is Parse into e, which it overwrites: a reader of many lines
// decodes them all into one Event (or into a slice made once) rather
// than allocating one a line, which a hook, a short process whose every
// new page costs a page fault, notices.
func parseInto(line []byte, e *Event) bool {
	*e = Event{}
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	if !parsePlain(line, e) {
		*e = Event{}
		if err := json.Unmarshal(line, e); err != nil {
			return false
		}
	}
	if e.Event == "" {
		return false
	}
	_, ok := e.Time()
	return ok
}

// Lines splits data into its complete lines; a last line without "\n"
// is left out (a writer may be in the middle of it).
func Lines(data []byte) [][]byte {
	var out [][]byte
	for line := range eachLine(data) {
		out = append(out, line)
	}
	return out
}

// eachLine yields data's complete lines as Lines returns them, without
// collecting them.
func eachLine(data []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 || !yield(data[:i]) {
				return
			}
			data = data[i+1:]
		}
	}
}
