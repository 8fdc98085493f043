package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

// mcpLogs are alice's session logs st mcp wrote, line by line.
func mcpLogs(t *testing.T, root string) map[string][]events.Event {
	t.Helper()
	dir := filepath.Join(root, "alice", "events")
	names, _ := filepath.Glob(filepath.Join(dir, "mcp-*.jsonl"))
	out := map[string][]events.Event{}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range events.Lines(data) {
			if e, ok := events.Parse(line); ok {
				out[filepath.Base(n)] = append(out[filepath.Base(n)], e)
			}
		}
	}
	return out
}

// A client without hooks (no event log of the agent's written lately)
// still feeds the board: st mcp records each tool call it serves as an
// event, between a SessionStart and a SessionEnd line, all via mcp.
func TestMCPRecordsCallsWithoutHooks(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	p.ok("st_agents", nil)
	p.fails("st_msg_read", map[string]any{"filename": "1714826789099-zzzzzz.md"})
	// Refused by the input schema (no body): a failed call all the same.
	if res := p.call("st_msg_send", map[string]any{"to": "bob"}); !res.IsError {
		t.Fatalf("st_msg_send without a body: %s", mcpText(res))
	}
	p.cs.Close()
	p.waitExit(t, 10*time.Second)
	logs := mcpLogs(t, root)
	if len(logs) != 1 {
		t.Fatalf("%d mcp logs, want 1: %v", len(logs), logs)
	}
	for name, evs := range logs {
		var got []string
		for _, e := range evs {
			if e.Via != "mcp" || e.Session+".jsonl" != name {
				t.Errorf("line %+v: not via mcp in its own session", e)
			}
			got = append(got, e.Event+" "+e.Tool)
		}
		want := "SessionStart |PostToolUse st_agents|PostToolUseFailure st_msg_read|PostToolUseFailure st_msg_send|SessionEnd "
		if strings.Join(got, "|") != want {
			t.Errorf("lines %q, want %q", strings.Join(got, "|"), want)
		}
		if evs[2].Error == "" || len(evs) > 3 && !strings.Contains(evs[3].Error, "body") {
			t.Errorf("the failed calls' lines do not say why: %+v", evs[2:])
		}
	}
}

// Where the hooks record (a hook wrote the agent's log a moment ago), st
// mcp stays quiet.
func TestMCPQuietWhereHooksRecord(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	dir := filepath.Join(root, "alice", "events")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"ts":"` + events.Stamp(time.Now()) + `","event":"PreToolUse","session":"s1","tool":"mcp__st__st_agents","hook_us":300}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	p.ok("st_agents", nil)
	p.cs.Close()
	p.waitExit(t, 10*time.Second)
	if logs := mcpLogs(t, root); len(logs) != 0 {
		t.Errorf("st mcp recorded where the hooks do: %v", logs)
	}
}

// An agent that only talks MCP shows as active while it works: a served
// call moves its lastActivity (the status file's time), even a call that
// sends or reads nothing.
func TestMCPCallsMoveLastActivity(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	p.ok("st_agents", nil)
	st := filepath.Join(root, "alice", "status")
	if err := os.WriteFile(st, []byte("busy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(st, old, old); err != nil {
		t.Fatal(err)
	}
	p.ok("st_agents", nil)
	fi, err := os.Stat(st)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(fi.ModTime()) > time.Minute {
		t.Errorf("the status file's time stayed at %v after a served call", fi.ModTime())
	}
	p.cs.Close()
	p.waitExit(t, 10*time.Second)
}
