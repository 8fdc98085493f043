package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/events"
)

// rolloutFile is a rollout Codex wrote in TestStopRecordsContextFill
// (-update rewrites it): the hooks' and the dashboard's tests read the
// context fill from it as codex-stop reads it from the live one.
var rolloutFile = filepath.Join("testdata", "rollout.jsonl")

// The last response's usage, as the mock reports it: codex-stop must
// find it in the rollout's tail at the end of the turn.
var lastUsage = usage{Input: 61234, Cached: 52000, Output: 420, Reasoning: 100}

// TestStopRecordsContextFill: at the end of a turn, codex-stop records
// in alice's event log how full the context is (the last response's
// total tokens, as Codex counts them) and the window Codex gives the
// model, both read from the rollout named by the payload's
// transcript_path, and the model the payload names.
func TestStopRecordsContextFill(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		if n == 0 {
			rep := call("exec_command", map[string]any{"cmd": "echo hi", "login": false})
			rep.Usage = &usage{Input: 52000, Cached: 48000, Output: 700, Reasoning: 300}
			return rep
		}
		rep := say("done")
		rep.Usage = &lastUsage
		return rep
	})
	r.agent("alice")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	r.codex("say hi in the shell")

	rollouts, _ := filepath.Glob(filepath.Join(r.codexHome, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(rollouts) != 1 {
		t.Fatalf("rollouts %v, want one", rollouts)
	}
	rollout := r.read(rollouts[0])
	t.Logf("rollout:\n%s", rollout)
	window := rolloutWindow(t, rollout)

	logs, _ := filepath.Glob(filepath.Join(r.root, "alice", "events", "*.jsonl"))
	var stop *events.Event
	for _, l := range logs {
		for line := range strings.Lines(r.read(l)) {
			var ev events.Event
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Event == "Stop" {
				stop = &ev
			}
		}
	}
	if stop == nil {
		t.Fatalf("no Stop line in %v", logs)
	}
	if want := int64(lastUsage.Input + lastUsage.Output); stop.CtxTokens != want || stop.CtxWindow != window || stop.Model != "gpt-5.1-codex" {
		t.Errorf("Stop line: ctx_tokens %d, ctx_window %d, model %q; want %d, %d (the rollout's), gpt-5.1-codex",
			stop.CtxTokens, stop.CtxWindow, stop.Model, want, window)
	}
	if *update {
		if err := os.WriteFile(rolloutFile, []byte(strings.ReplaceAll(rollout, r.dir, "$TMP")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rolloutWindow is the model_context_window of the rollout's last
// token_count record; the test fails when Codex gave none.
func rolloutWindow(t *testing.T, rollout string) int64 {
	t.Helper()
	var window int64
	for line := range strings.Lines(rollout) {
		var rec struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
				Info *struct {
					Window int64 `json:"model_context_window"`
				} `json:"info"`
			} `json:"payload"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Type == "event_msg" && rec.Payload.Type == "token_count" && rec.Payload.Info != nil {
			window = rec.Payload.Info.Window
		}
	}
	if window <= 0 {
		t.Fatalf("the rollout gives no model_context_window")
	}
	return window
}
