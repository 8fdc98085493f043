package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeJudge writes config.yaml naming key's judge: a real script that
// prints 0.9 when what it is asked about contains marker, else 0.1, and
// keeps each question as a line of judge-input.jsonl (judgeInputs).
func (p *project) writeJudge(key, marker string) {
	p.t.Helper()
	script := filepath.Join(p.home, "judge.sh")
	judge := "#!/bin/sh\nin=$(cat)\nprintf '%s\\n' \"$in\" >>'" + filepath.Join(p.home, "judge-input.jsonl") + "'\n" +
		"if printf '%s' \"$in\" | grep -q '" + marker + "'; then echo 0.9; else echo 0.1; fi\n"
	if err := os.WriteFile(script, []byte(judge), 0o755); err != nil {
		p.t.Fatal(err)
	}
	p.writeConfigYAML(key + ": " + script + "\n")
}

// judgeInputs are the questions the judge was asked, in order.
func (p *project) judgeInputs() []map[string]any {
	p.t.Helper()
	data, _ := os.ReadFile(filepath.Join(p.home, "judge-input.jsonl"))
	var out []map[string]any
	for line := range strings.Lines(string(data)) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			p.t.Fatalf("the judge got %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// writeConfigYAML writes st's config.yaml in the project's config folder.
func (p *project) writeConfigYAML(yaml string) {
	p.t.Helper()
	dir := filepath.Join(p.home, ".config", "smalltalk")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(yaml), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// The stop judge with the real client: a turn that ends on "next I'll…"
// is continued once with st's nudge, which reaches the model exactly
// once; the reply to it ends the turn (the judge says 0.1 there), and
// the client reports no hook problem.
func TestStopJudgeNudgesOnce(t *testing.T) {
	const prompt = "JUDGE-PROMPT: fix the bug"
	p := newProject(t, func(n int, r *Request) Reply {
		if strings.Contains(r.LastUser(), "st's stop judge") {
			return Text("TESTS-RUN: all green")
		}
		return Text("EARLY-STOP: next I'll run the tests")
	})
	p.writeJudge("stop_judge", "EARLY-STOP")
	r := p.claude(prompt)
	p.checkClean(r)
	reqs := mainRequests(p.mock.Messages(), prompt)
	if len(reqs) != 2 {
		t.Fatalf("%d main requests, want the turn and its one continuation", len(reqs))
	}
	if n := copies(reqs[1], "st's stop judge"); n != 1 {
		t.Errorf("the continuation holds %d copies of the nudge, want 1", n)
	}
	if r.result == nil || r.result["result"] != "TESTS-RUN: all green" {
		t.Errorf("the run ended with %v, want the reply to the nudge", r.result["result"])
	}
	var advice []string
	for _, e := range find(p.events(), "Stop") {
		if e.Session == r.session {
			advice = append(advice, e.Advice+"/"+e.Judge)
		}
	}
	if strings.Join(advice, ",") != "nudge/0.9,/" { // the stop ending a continuation is left alone
		t.Errorf("Stop lines (advice/judge) = %v, want a nudge at 0.9, then an end the judge is not asked about", advice)
	}
	if in := p.judgeInputs(); len(in) != 1 || in[0]["prompt"] != prompt {
		t.Errorf("the judge was asked %v, want once about the prompt %q", in, prompt)
	}
}

// SubagentStop with the real client: a subagent that returns a plan is
// sent back to work once by the subagent gate, with the gate's text in
// its own next request (not the parent's); its second report ends it;
// both stops are recorded against the parent session with the first line
// of each report, and the parent gets the work's report.
func TestSubagentGateSendsBackOnce(t *testing.T) {
	const prompt = "GATE-PROMPT: ask a helper"
	p := newProject(t, func(n int, r *Request) Reply {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Text, subagentTask) {
			if strings.Contains(r.LastUser(), "st's subagent gate") {
				return Text("SUB-DONE: looked, nothing to fix")
			}
			return Text("SUB-PLAN: first I will look around")
		}
		switch {
		case strings.Contains(r.LastUser(), "SUB-DONE"): // the client's note that the helper finished
			return Text("PARENT-DONE")
		case strings.Contains(r.LastUser(), "SUB-PLAN"):
			return Text("PARENT-GOT-A-PLAN")
		case r.HasToolResult("toolu_agent"): // Claude Code runs the helper in the background
			return Text("waiting for the helper")
		}
		return ToolUse("toolu_agent", "Agent", map[string]any{"description": "look around", "prompt": subagentTask, "subagent_type": "general-purpose"})
	})
	p.writeJudge("subagent_gate", "SUB-PLAN")
	r := p.claude(prompt)
	p.checkClean(r)
	all := p.mock.Messages()
	var sub []*Request
	for _, req := range all {
		if len(req.Messages) > 0 && strings.Contains(req.Messages[0].Text, subagentTask) {
			sub = append(sub, req)
		}
	}
	if len(sub) != 2 || copies(sub[1], "st's subagent gate") != 1 {
		t.Fatalf("the subagent made %d requests (want 2), the second with the gate's text once", len(sub))
	}
	if n := countIn(mainRequests(all, prompt), "st's subagent gate"); n != 0 {
		t.Errorf("the gate's text reached the parent in %d requests", n)
	}
	if n := countIn(mainRequests(all, prompt), "SUB-DONE"); n != 1 || r.result == nil || r.result["result"] != "PARENT-DONE" {
		t.Errorf("the subagent's final report reached the parent in %d requests (want 1), and the run ended with %v", n, r.result["result"])
	}
	if n := countIn(mainRequests(all, prompt), "SUB-PLAN"); n != 0 {
		t.Errorf("the plan the gate sent back reached the parent in %d requests", n)
	}
	var stops []event
	for _, e := range find(p.events(), "SubagentStop") {
		if e.Session == r.session {
			stops = append(stops, e)
		}
	}
	if len(stops) != 2 || stops[0].AgentID == "" || stops[1].AgentID != stops[0].AgentID ||
		stops[0].Advice != "gate" || stops[0].Judge != "0.9" || !strings.HasPrefix(stops[0].Message, "SUB-PLAN") ||
		stops[1].Advice != "" || stops[1].Judge != "" || !strings.HasPrefix(stops[1].Message, "SUB-DONE") ||
		stops[0].AgentType != "general-purpose" {
		t.Errorf("SubagentStop lines = %+v, want the gate at 0.9 on the plan, then the report, the gate not asked again", stops)
	}
	starts := find(p.events(), "SubagentStart")
	if len(starts) != 1 || starts[0].AgentID != stops[0].AgentID {
		t.Errorf("SubagentStart lines = %+v, want one for the subagent that stopped", starts)
	}
}
