package mcp

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/status"
)

// A client that runs no hooks (Cursor, Windsurf and other MCP-only
// clients) leaves no event log, so the board would show its agent idle
// however busy it is. When no hook records for the agent, st mcp records
// each tool call it serves in a session log of its own (mcp-<ms>-<pid>),
// as the hooks record theirs: a SessionStart line at the first call, a
// PostToolUse or PostToolUseFailure line per call (tool, duration,
// error; via "mcp"), a SessionEnd line at exit. It stays quiet while any
// other session log of the agent was written within hookWindow: the
// hooks record there, tool calls included (Claude Code and Codex run
// PreToolUse before an MCP tool call).

// hookWindow is how recent a hook-written log must be to count as hooks
// recording for the agent.
const hookWindow = 10 * time.Minute

// hookCheckEvery is how long a look at the agent's logs is trusted.
const hookCheckEvery = 30 * time.Second

// mcpSessionPrefix starts the name of every log st mcp writes.
const mcpSessionPrefix = "mcp-"

// recorder writes the tool calls' event lines.
type recorder struct {
	mu      sync.Mutex
	session string
	started bool      // the SessionStart line is written
	checked time.Time // when hooks was last decided
	hooks   bool      // a hook records for the agent
	ended   bool      // offline is being written: no line or bump after it
}

// recordCall appends the line of one tool call, unless hooks record for
// the agent or the agent is a throwaway one (its folder must stay empty
// to be removed). Errors are dropped: a log must never fail a call.
func (s *server) recordCall(name string, start time.Time, failure error) {
	if s.cfg.Throwaway || s.cfg.Agent == "" {
		return
	}
	t, err := fsutil.Open(s.cfg.Root)
	if err != nil {
		return
	}
	defer t.Close()
	r := &s.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return // a call that outlived the shutdown's wait
	}
	now := s.cfg.Now()
	if r.session == "" {
		r.session = fmt.Sprintf("%s%d-%d", mcpSessionPrefix, now.UnixMilli(), os.Getpid())
	}
	if r.checked.IsZero() || now.Sub(r.checked) >= hookCheckEvery {
		r.hooks, r.checked = hooksRecord(t, s.cfg.Agent, now), now
	}
	if r.hooks {
		return
	}
	// Best effort, as the hooks' lines are: a tool call never fails
	// because its event line could not be written.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if !r.started {
		_ = events.Append(ctx, t, s.cfg.Agent, &events.Event{TS: events.Stamp(start), Event: "SessionStart", Session: r.session, Type: "mcp", Via: "mcp"})
		r.started = true
	}
	ev := &events.Event{TS: events.Stamp(now), Event: "PostToolUse", Session: r.session, Tool: name, ToolMS: now.Sub(start).Milliseconds(), Via: "mcp"}
	if failure != nil {
		ev.Event = "PostToolUseFailure"
		ev.Error = events.Cap(events.FirstLine(failure.Error()), 200)
	}
	_ = events.Append(ctx, t, s.cfg.Agent, ev)
	// An agent's last activity (st agents, the board) is its files'
	// newest time, and a call that sends or reads nothing changes none:
	// a call served shows the agent active through its status file (one
	// it has: creating it is the refresh loop's, on its own schedule).
	if fi, err := t.Lstat(s.cfg.Agent + "/status"); err == nil && now.Sub(fi.ModTime()) >= activityEvery {
		_ = status.Refresh(t, s.cfg.Agent) // best effort, as the line above
	}
}

// activityEvery is how often served calls bump the status file's time.
const activityEvery = 10 * time.Second

// recordEnd closes the session log with a SessionEnd line, when one was
// started.
func (s *server) recordEnd(t *fsutil.Tree) {
	r := &s.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = true
	if !r.started {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = events.Append(ctx, t, s.cfg.Agent, &events.Event{TS: events.Stamp(s.cfg.Now()), Event: "SessionEnd", Session: r.session, Type: "mcp", Via: "mcp"})
}

// hooksRecord reports whether a session log of agent's that st mcp did
// not write changed within hookWindow of now.
func hooksRecord(t *fsutil.Tree, agent string, now time.Time) bool {
	names, _ := events.WrittenSince(t, agent, now.Add(-hookWindow))
	return slices.ContainsFunc(names, func(n string) bool { return !strings.HasPrefix(n, mcpSessionPrefix) })
}
