package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// judgeRig is a store with agent alice and a config naming judge (a
// script in testdata/judge) as the stop judge.
func judgeRig(t *testing.T, judge string, extra string) Options {
	t.Helper()
	root, cfg := t.TempDir(), t.TempDir()
	for _, d := range []string{"alice/inbox", "alice/archive"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script, err := filepath.Abs(filepath.Join("testdata", "judge", judge))
	if err != nil {
		t.Fatal(err)
	}
	yaml := "stop_judge: " + script + "\n" + extra
	if err := os.WriteFile(filepath.Join(cfg, "config.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return Options{Root: root, Agent: "alice", ConfigDir: cfg, StateDir: t.TempDir(), HookTimeoutMS: "1200"}
}

// clientStop is a real client's Stop payload (e2e/*/testdata/payloads).
func clientStop(t *testing.T, client string, edit func(map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "e2e", client, "testdata", "payloads", "Stop.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	out, _ := json.Marshal(m)
	return out
}

// serveStop runs the client's Stop hook as `st hook` does.
func serveStop(t *testing.T, client string, opt Options, payload []byte) string {
	t.Helper()
	event := Stop
	if client == "codex" {
		event = CodexStop
	}
	var stdout, stderr bytes.Buffer
	opt.Start = time.Now()
	if code := Serve(event, opt, nil, bytes.NewReader(payload), &stdout, &stderr); code != 0 {
		t.Fatalf("%s: exit %d, stderr %q", event, code, stderr.String())
	}
	return stdout.String()
}

// stopLines are the session's Stop lines in alice's event log.
func stopLines(t *testing.T, opt Options, session string) []events.Event {
	t.Helper()
	tr, err := fsutil.Open(opt.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	evs, _ := events.Tail(tr, "alice", session, 1<<20)
	var out []events.Event
	for _, e := range evs {
		if e.Event == "Stop" {
			out = append(out, e)
		}
	}
	return out
}

func TestStopJudge(t *testing.T) {
	for _, client := range []string{"claudecode", "codex"} {
		for _, tt := range []struct {
			judge, extra string
			nudge        bool
			verdict      string // on Claude Code's event line
		}{
			{"high.sh", "", true, "0.9"},
			{"low.sh", "", false, "0.1"},
			{"high.sh", "stop_nudge_threshold: 0.95\n", false, "0.9"},
			{"garbage.sh", "", false, "failed"},
			{"sleep.sh", "", false, "timeout"},
		} {
			t.Run(client+"/"+tt.judge+tt.extra, func(t *testing.T) {
				opt := judgeRig(t, tt.judge, tt.extra)
				out := serveStop(t, client, opt, clientStop(t, client, nil))
				got := strings.Contains(out, "st's stop judge")
				if got != tt.nudge {
					t.Fatalf("nudged %v, want %v; stdout %q", got, tt.nudge, out)
				}
				if tt.nudge && client == "codex" && !strings.Contains(out, `"decision": "block"`) {
					t.Errorf("Codex's nudge is not a block: %q", out)
				}
				if tt.nudge && client == "claudecode" && !strings.Contains(out, `"hookEventName":"Stop","additionalContext":"You ended your turn`) {
					t.Errorf("Claude Code's nudge does not continue the turn: %q", out)
				}
				if client == "claudecode" {
					lines := stopLines(t, opt, "8ef91779-2425-4453-8525-1f6061eee1de")
					if len(lines) != 1 || lines[0].Judge != tt.verdict {
						t.Errorf("event lines %+v, want one with judge %q", lines, tt.verdict)
					}
				}
			})
		}
	}
}

// TestStopJudgeLimits: once per stop chain, at most three nudges per
// prompt, never when the agent waits on a human; a new prompt counts
// anew.
func TestStopJudgeLimits(t *testing.T) {
	opt := judgeRig(t, "high.sh", "")
	stop := func(edit func(map[string]any)) bool {
		return strings.Contains(serveStop(t, "claudecode", opt, clientStop(t, "claudecode", edit)), "st's stop judge")
	}
	if !stop(nil) {
		t.Fatal("first Stop: no nudge")
	}
	if stop(func(m map[string]any) { m["stop_hook_active"] = true }) {
		t.Error("the Stop ending the nudged continuation was nudged again")
	}
	if !stop(nil) || stop(nil) || !stop(nil) || stop(nil) {
		t.Error("a nudge, its chain, a nudge, its chain: not as expected")
	}
	// Three nudges of this prompt so far: no fourth.
	if stop(nil) {
		t.Error("a fourth nudge for one prompt")
	}
	next := func(m map[string]any) { m["prompt_id"] = "another-prompt" }
	if !stop(next) {
		t.Error("a new prompt was not judged")
	}
	opt2 := judgeRig(t, "high.sh", "")
	opt = opt2
	if stop(func(m map[string]any) { m["last_assistant_message"] = "Shall I also update the docs?" }) {
		t.Error("nudged a reply that asks the user")
	}
	lines := stopLines(t, opt, "8ef91779-2425-4453-8525-1f6061eee1de")
	if len(lines) != 1 || lines[0].Judge != "waiting" {
		t.Errorf("event lines %+v, want judge waiting", lines)
	}
	// A notification nothing answered: the agent waits on a human.
	tr, _ := fsutil.Open(opt.Root)
	defer tr.Close()
	events.Append(t.Context(), tr, "alice", &events.Event{TS: events.Stamp(time.Now()), Event: "Notification", Session: "8ef91779-2425-4453-8525-1f6061eee1de", Type: "permission_prompt"})
	if stop(nil) {
		t.Error("nudged an agent waiting on a permission prompt")
	}
}

// TestStopJudgeInput: the judge reads the user's prompt (from the
// transcript) and the turn's last message as JSON on stdin.
func TestStopJudgeInput(t *testing.T) {
	opt := judgeRig(t, "record.sh", "")
	saw := filepath.Join(t.TempDir(), "saw.json")
	t.Setenv("JUDGE_SAW", saw)
	transcript := filepath.Join(t.TempDir(), "t.jsonl")
	lines := `{"type":"user","message":{"role":"user","content":"fix the flaky test"}}` + "\n" +
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"next I'll run it"}]}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}` + "\n"
	if err := os.WriteFile(transcript, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	serveStop(t, "claudecode", opt, clientStop(t, "claudecode", func(m map[string]any) {
		m["transcript_path"], m["last_assistant_message"] = transcript, "Next I'll run the tests."
	}))
	data, err := os.ReadFile(saw)
	if err != nil {
		t.Fatal(err)
	}
	var in judgeInput
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	if in.Prompt != "fix the flaky test" || in.LastAssistantMessage != "Next I'll run the tests." || in.SessionID == "" {
		t.Errorf("the judge got %+v", in)
	}
}

func TestStopJudgeConfig(t *testing.T) {
	c := ParseConfig([]byte("stop_judge: ' judge --fast '\nstop_nudge_threshold: 0.5\n"))
	if c.StopJudge != "judge --fast" || c.StopNudgeThreshold != 0.5 {
		t.Errorf("config %q %v", c.StopJudge, c.StopNudgeThreshold)
	}
	if c := ParseConfig([]byte("stop_nudge_threshold: 7\n")); c.StopNudgeThreshold != DefaultNudgeAt || c.StopJudge != "" {
		t.Errorf("defaults %q %v", c.StopJudge, c.StopNudgeThreshold)
	}
}

// TestStopJudgeSlowKeepsLine: a judge that answers after the hook's first
// lock wait has run out, or runs out of its own bound (under the default
// hook budget), still leaves the turn's Stop line, with its answer or
// "timeout".
func TestStopJudgeSlowKeepsLine(t *testing.T) {
	sessions := map[string]string{"claudecode": "8ef91779-2425-4453-8525-1f6061eee1de", "codex": "01a23373-055a-76e2-949f-721c83d19988"}
	for _, tt := range []struct{ client, judge, verdict string }{
		{"claudecode", "slow.sh", "0.9"},
		{"claudecode", "sleep.sh", "timeout"},
		{"codex", "slow.sh", "0.9"},
	} {
		t.Run(tt.client+"/"+tt.judge, func(t *testing.T) {
			opt := judgeRig(t, tt.judge, "")
			opt.HookTimeoutMS = ""
			if tt.judge == "slow.sh" {
				// A bound far past the judge's 1.6 s: only the first lock
				// wait runs out, however busy the machine.
				opt.HookTimeoutMS, opt.judgeWait = "6000", 5*time.Second
			}
			out := serveStop(t, tt.client, opt, clientStop(t, tt.client, nil))
			if nudged := strings.Contains(out, "st's stop judge"); nudged != (tt.verdict == "0.9") {
				t.Errorf("nudged %v; stdout %q", nudged, out)
			}
			lines := stopLines(t, opt, sessions[tt.client])
			if len(lines) != 1 || lines[0].Judge != tt.verdict {
				t.Errorf("Stop lines %+v, want one with judge %q", lines, tt.verdict)
			}
		})
	}
}

// TestLastPromptRealTranscripts: the judge's prompt from what the clients
// really write. Claude Code 2.1.328's transcript: the prompt line far
// behind a turn's request lines, its last-prompt repeat near the end (a
// real tail); Codex 0.169.0's rollout: the UserMessage item.
func TestLastPromptRealTranscripts(t *testing.T) {
	tail, err := os.ReadFile(filepath.Join("..", "dashboard", "testdata", "transcript-tail.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var blob []byte // one of the tail's request lines, the kind that fills a long turn
	for line := range strings.Lines(string(tail)) {
		if strings.Contains(line, `"type":"api-request-blob"`) {
			blob = []byte(line)
			break
		}
	}
	const toolsPrompt = "TOOLS-PROMPT: read the big file, run a command, ask a helper, tell bob"
	many := func(n int) []byte { return bytes.Repeat(blob, n) }
	for _, tt := range []struct {
		name, file string
		data       []byte
		prompt     string
		key        string // "" : any
	}{
		{"claude code, last-prompt near the end", "t.jsonl", append(append([]byte(`{"type":"user","message":{"role":"user","content":"`+toolsPrompt+`"}}`+"\n"), many(200)...), tail...), toolsPrompt, ""},
		{"claude code, last-prompt far from the end", "t.jsonl", append(append([]byte{}, tail...), many(3000)...), toolsPrompt, ""},
		{"codex rollout", "rollout.jsonl", nil, "say hi in the shell", "01a234fe-f661-7283-ba15-7a8a6b2f1ec1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("..", "e2e", "codex", "testdata", tt.file)
			if tt.data != nil {
				path = filepath.Join(t.TempDir(), tt.file)
				if err := os.WriteFile(path, tt.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			prompt, key := lastPrompt(path)
			if prompt != tt.prompt || key == "" || (tt.key != "" && key != tt.key) {
				t.Errorf("lastPrompt = %q, key %q; want %q, key %q", prompt, key, tt.prompt, tt.key)
			}
		})
	}
}

// TestStopJudgeCodexEveryPrompt: in one Codex session every prompt is
// judged, given its own prompt, and nudged once (its continuation's Stop
// left alone), past three prompts.
func TestStopJudgeCodexEveryPrompt(t *testing.T) {
	opt := judgeRig(t, "record.sh", "")
	saw := filepath.Join(t.TempDir(), "saw.json")
	t.Setenv("JUDGE_SAW", saw)
	real, err := os.ReadFile(filepath.Join("..", "e2e", "codex", "testdata", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var userMessage string // Codex's record of a prompt the user typed
	for line := range strings.Lines(string(real)) {
		if strings.Contains(line, `"type":"UserMessage"`) {
			userMessage = line
		}
	}
	rollout := filepath.Join(t.TempDir(), "rollout.jsonl")
	if err := os.WriteFile(rollout, real, 0o644); err != nil {
		t.Fatal(err)
	}
	say := func(id, text string) {
		line := strings.NewReplacer("01a234fe-f661-7283-ba15-7a8a6b2f1ec1", id, "say hi in the shell", text).Replace(userMessage)
		f, err := os.OpenFile(rollout, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
	}
	stop := func(continuation bool) bool {
		out := serveStop(t, "codex", opt, clientStop(t, "codex", func(m map[string]any) {
			m["transcript_path"], m["stop_hook_active"] = rollout, continuation
		}))
		return strings.Contains(out, "st's stop judge")
	}
	for i := range 5 {
		prompt := "prompt number " + strconv.Itoa(i+1)
		say("item-"+strconv.Itoa(i), prompt)
		if !stop(false) {
			t.Fatalf("%s was not nudged", prompt)
		}
		data, _ := os.ReadFile(saw)
		var in judgeInput
		if err := json.Unmarshal(data, &in); err != nil || in.Prompt != prompt {
			t.Errorf("the judge of %q got the prompt %q", prompt, in.Prompt)
		}
		say("hook-"+strconv.Itoa(i), "You ended your turn with work still to do (st's stop judge: 0.95).")
		if stop(true) {
			t.Fatalf("the continuation of %s was nudged", prompt)
		}
	}
}
