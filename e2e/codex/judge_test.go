package codex

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/events"
)

// The stop judge with the real Codex: a turn that ends on "next I'll…"
// is continued once with st's nudge (Stop's decision:block, which Codex
// hands the model as a hook prompt), and the Stop ending that
// continuation is left alone; the session's next prompt (a resumed
// session) is judged as the first was, and the judge gets each prompt.
func TestStopJudgeNudgesOnce(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		if n%2 == 0 {
			return say("EARLY-STOP: next I'll run the tests")
		}
		return say("TESTS-RUN: all green")
	})
	r.agent("alice")
	judge := filepath.Join(r.home, "judge.sh")
	asked := filepath.Join(r.home, "judge-input.jsonl")
	r.write(judge, "#!/bin/sh\nin=$(cat)\nprintf '%s\\n' \"$in\" >>'"+asked+"'\n"+
		"if printf '%s' \"$in\" | grep -q EARLY-STOP; then echo 0.9; else echo 0.1; fi\n")
	r.write(filepath.Join(r.home, ".config", "smalltalk", "config.yaml"), "stop_judge: sh "+judge+"\n")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("fix the bug")
	reqs := r.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want the turn and its one continuation:\n%s", len(reqs), logs)
	}
	if reqs[0].Contains("stop judge") {
		t.Errorf("the nudge reached the model before the turn ended")
	}
	if n := strings.Count(reqs[1].Raw, "You ended your turn with work still to do"); n != 1 {
		t.Errorf("the continuation holds %d copies of the nudge, want 1", n)
	}
	if strings.Count(logs, "hook: Stop Blocked") != 1 || strings.Count(logs, "hook: Stop Completed") != 1 {
		t.Errorf("want Stop to block once, then end quietly:\n%s", logs)
	}
	logs = r.codex("now fix the docs", "resume", "--last")
	if n := len(r.api.Requests()); n != 4 {
		t.Fatalf("%d model requests after the second prompt, want two more (its turn and one continuation):\n%s", n, logs)
	}
	var advice []string
	for _, l := range r.eventLines("Stop") {
		advice = append(advice, l.Advice+"/"+l.Judge)
	}
	if strings.Join(advice, ",") != "nudge/0.9,/,nudge/0.9,/" {
		t.Errorf("Stop lines (advice/judge) = %v, want for each prompt a nudge at 0.9, then an end the judge is not asked about", advice)
	}
	var prompts []string
	for line := range strings.Lines(r.read(asked)) {
		var in struct{ Prompt string }
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("the judge got %q: %v", line, err)
		}
		prompts = append(prompts, in.Prompt)
	}
	if strings.Join(prompts, "|") != "fix the bug|now fix the docs" {
		t.Errorf("the judge was asked about the prompts %q, want each prompt once", prompts)
	}
}

// eventLines is every line of alice's event logs for event, oldest first.
func (r *rig) eventLines(event string) []events.Event {
	r.t.Helper()
	logs, _ := filepath.Glob(filepath.Join(r.root, "alice", "events", "*.jsonl"))
	var out []events.Event
	for _, l := range logs {
		for line := range strings.Lines(r.read(l)) {
			if ev, ok := events.Parse([]byte(line)); ok && ev.Event == event {
				out = append(out, ev)
			}
		}
	}
	return out
}
