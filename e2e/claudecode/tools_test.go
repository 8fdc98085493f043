package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	toolsPrompt  = "TOOLS-PROMPT: read the big file, run a command, ask a helper, tell bob"
	subagentTask = "SUBAGENT-TASK: look around"
)

// toolsScript drives one turn through a Read of a big file, a Bash call,
// a failing Bash call, an Agent (subagent) call and an st MCP call, then a second turn that
// finds the context 70% full. The subagent answers at once.
func toolsScript(bigFile string) Script {
	return func(n int, r *Request) Reply {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Text, subagentTask) {
			return Text("SUB-REPORT: nothing to see")
		}
		switch {
		case strings.Contains(r.LastUser(), "SECOND-TURN"):
			return Text("second turn done")
		case r.HasToolResult("toolu_mcp"):
			return Reply{Blocks: []Block{{Text: "all done"}}, InputTokens: 140000}
		case r.HasToolResult("toolu_agent"):
			return filled(ToolUse("toolu_mcp", "mcp__st__st_msg_send", map[string]any{"to": "bob", "body": "MCP-BODY from the model", "subject": "via mcp"}))
		case r.HasToolResult("toolu_fail"):
			return filled(ToolUse("toolu_agent", "Agent", map[string]any{"description": "look around", "prompt": subagentTask, "subagent_type": "general-purpose"}))
		case r.HasToolResult("toolu_bash"):
			return filled(ToolUse("toolu_fail", "Bash", map[string]any{"command": "exit 3", "description": "fail on purpose"}))
		case r.HasToolResult("toolu_read"):
			return filled(ToolUse("toolu_bash", "Bash", map[string]any{"command": "echo BASH-OUT", "description": "print a marker"}))
		}
		return ToolUse("toolu_read", "Read", map[string]any{"file_path": bigFile})
	}
}

// toolFill is the context fill of the replies that call a tool after the
// Read: what their PostToolUse lines record.
const toolFill = 50000

func filled(r Reply) Reply {
	r.InputTokens = toolFill
	return r
}

// The tool and turn hooks against the real client: PreToolUse's
// large-Read advisory reaches the model next to the tool result,
// PostToolUse logs every tool, SubagentStart's contract reaches the
// subagent, an MCP call of st's server delivers a message, a later
// UserPromptSubmit warns about the context fill, and SessionEnd marks
// the agent offline. Every st output is accepted.
func TestToolHooks(t *testing.T) {
	var p *project
	bigFile := ""
	p = newProject(t, func(n int, r *Request) Reply { return toolsScript(bigFile)(n, r) })
	bigFile = filepath.Join(p.dir, "big.txt")
	if err := os.WriteFile(bigFile, []byte(strings.Repeat("a line of a big file\n", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	// With tool search (the default) MCP tools are deferred: named in the
	// prompt, loaded on demand. Off, they are in every request's tools.
	p.extra = append(p.extra, "ENABLE_TOOL_SEARCH=false")
	l := p.start()
	l.send(toolsPrompt)
	if res := l.result(1); res["result"] != "all done" {
		t.Fatalf("first turn ended with %v", res["result"])
	}
	l.send("SECOND-TURN")
	l.result(2)
	if got := p.status(); got == "offline" {
		t.Errorf("status is offline while the session runs")
	}
	r := l.close()
	p.checkClean(r)
	reqs := p.mock.Messages()

	// MCP: st's tools are offered, and the call delivered a message.
	for _, name := range []string{"mcp__st__st_msg_send", "mcp__st__st_msg_ls", "mcp__st__st_msg_reply", "mcp__st__st_context_write"} {
		if !reqs[0].HasTool(name) {
			t.Errorf("first request does not offer %s; tools: %v", name, reqs[0].Tools)
		}
	}
	bob := p.inbox("bob")
	if len(bob) != 1 || !strings.Contains(bob[0], "MCP-BODY from the model") || !strings.Contains(bob[0], "from: alice") {
		t.Errorf("bob's inbox = %q, want the message sent through mcp__st__st_msg_send from alice", bob)
	}
	// The client hands the model st's structuredContent, not its text.
	files, _ := filepath.Glob(filepath.Join(p.root, "bob", "inbox", "*.md"))
	if i := firstWith(reqs, func(r *Request) bool { return r.HasToolResult("toolu_mcp") }); i < 0 || len(files) != 1 ||
		!strings.Contains(reqs[i].LastUser(), `{"filename":"`+filepath.Base(files[0])+`","identity":"bob"}`) {
		t.Errorf("the MCP tool result did not reach the model: %.500q", reqs[max(i, 0)].LastUser())
	}

	// PreToolUse: the large-Read advisory sits next to the Read's result.
	advice := bigFile + " is 42000 bytes (about 10500 tokens)"
	if i := firstWith(reqs, func(r *Request) bool { return r.HasToolResult("toolu_read") }); i < 0 || !strings.Contains(reqs[i].LastUser(), advice) {
		t.Errorf("the request after the Read lacks the advisory %q", advice)
	}
	// SubagentStart: the report contract is in the subagent's context.
	sub := firstWith(reqs, func(r *Request) bool {
		return len(r.Messages) > 0 && strings.Contains(r.Messages[0].Text, subagentTask)
	})
	if sub < 0 || !strings.Contains(reqs[sub].Text(), "Report contract for this subagent") {
		t.Errorf("the subagent's first request (index %d) lacks st's report contract", sub)
	}
	// UserPromptSubmit: the second turn is told the context is 70% full
	// (140,000 of the default 200,000 tokens).
	if i := firstWith(reqs, func(r *Request) bool { return strings.Contains(r.LastUser(), "SECOND-TURN") }); i < 0 ||
		!strings.Contains(reqs[i].LastUser(), "Context is 70% full (140000 of 200000 tokens") {
		t.Errorf("the second turn's request lacks the context-fill warning")
	}

	// The event log holds every hook, with what st read from the payloads.
	evs := p.events()
	want := []struct{ event, tool, detail string }{
		{"PreToolUse", "Read", "large-read"},
		{"PostToolUse", "Read", bigFile},
		{"PreToolUse", "Bash", "echo BASH-OUT"},
		{"PostToolUse", "Bash", "echo BASH-OUT"},
		{"PostToolUseFailure", "Bash", "exit 3"},
		{"PostToolUse", "mcp__st__st_msg_send", ""},
		{"SubagentStart", "", "general-purpose"},
		{"SubagentStop", "", "general-purpose"},
		{"UserPromptSubmit", "", "context-60"},
		{"Stop", "", ""},
		{"SessionEnd", "", ""},
	}
	for _, w := range want {
		found := false
		for _, e := range find(evs, w.event) {
			if e.Session != r.session || w.tool != "" && e.Tool != w.tool {
				continue
			}
			if w.event == "SubagentStop" && e.Message != "SUB-REPORT: nothing to see" {
				continue // the subagent's end carries the first line of its report
			}
			if w.detail == "" || strings.Contains(e.Advice+" "+e.Path+" "+e.Command+" "+e.AgentType, w.detail) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s event for tool %q with %q in session %s; log: %+v", w.event, w.tool, w.detail, r.session, find(evs, w.event))
		}
	}
	// PostToolUse records the context fill of the latest reply in the
	// transcript's tail (toolFill from the Bash call on) and its model.
	// The client may run a hook before it writes the reply that called
	// the tool (under load the Bash call's line once carried no fill: the
	// reply was not written yet, and the one before lay behind the big
	// Read's result, past the tail bound), so any tool after the Read
	// may be the one that shows it; Stop likewise.
	fill := false
	for _, e := range find(evs, "PostToolUse") {
		if e.Session == r.session && e.Tool != "Read" && e.CtxTokens == toolFill && e.Model != "" {
			fill = true
		}
	}
	if !fill {
		t.Errorf("no PostToolUse event after the Read with ctx_tokens %d and a model; log: %+v", toolFill, find(evs, "PostToolUse"))
	}
	// ST_E2E_KEEP_TRANSCRIPT=FILE keeps the session's transcript (how
	// dashboard/testdata/transcript-tail.jsonl and testdata/transcript.jsonl,
	// which scripts/bench gives the hooks, were recorded).
	if keep := os.Getenv("ST_E2E_KEEP_TRANSCRIPT"); keep != "" {
		for _, pl := range p.payloads("Stop") {
			if path, _ := pl["transcript_path"].(string); path != "" {
				if data, err := os.ReadFile(path); err == nil {
					os.WriteFile(keep, data, 0o644)
				}
			}
		}
	}
	if got := p.status(); got != "offline" {
		t.Errorf("status after SessionEnd = %q, want offline", got)
	}
	p.checkPayloads()
}

func firstWith(reqs []*Request, f func(*Request) bool) int {
	for i, r := range reqs {
		if f(r) {
			return i
		}
	}
	return -1
}
