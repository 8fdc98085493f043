package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// modelLine is an assistant turn of model with n input tokens.
func modelLine(model string, n int, side bool) string {
	l := usageLine(n, 0, 0, side)
	return l[:len(l)-2] + `,"model":"` + model + `"}}`
}

func TestNoteContext(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, transcript(lines...), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	main := write("main.jsonl", modelLine("claude-old", 10, false), modelLine("claude-sonnet-4-5", 84000, false),
		modelLine("claude-haiku", 5, true), `{"type":"user","message":{"content":"tool result"}}`)
	none := write("none.jsonl", `{"type":"user","message":{"content":"hi"}}`)
	tests := []struct {
		event, path string
		tokens      int64
		model       string
	}{
		{"PostToolUse", main, 84000, "claude-sonnet-4-5"},
		{"Stop", main, 84000, "claude-sonnet-4-5"},
		{"PreCompact", main, 84000, "claude-sonnet-4-5"},
		{"PreToolUse", main, 0, ""}, // not an event that records it
		{"Stop", none, 0, ""},
		{"Stop", filepath.Join(dir, "missing.jsonl"), 0, ""},
		{"Stop", dir, 0, ""}, // a folder
		{"Stop", "", 0, ""},
	}
	for _, tt := range tests {
		p := Payload{TranscriptPath: tt.path}
		ev := NewEvent(tt.event, &p, time.Now())
		NoteContext(ev, &p)
		if ev.CtxTokens != tt.tokens || ev.Model != tt.model {
			t.Errorf("%s %s: ctx %d model %q, want %d %q", tt.event, tt.path, ev.CtxTokens, ev.Model, tt.tokens, tt.model)
		}
	}
	// The hook's line carries it.
	env, root := testEnv(t)
	Run(Stop, []byte(`{"session_id":"s9","transcript_path":"`+main+`"}`), env)
	evs := logLines(t, root, "s9")
	if len(evs) != 1 || evs[0].CtxTokens != 84000 || evs[0].Model != "claude-sonnet-4-5" {
		t.Errorf("stop line = %+v", evs)
	}
}

// replyLine is a main-thread assistant reply with text and n input tokens,
// as Claude Code writes it to the transcript.
func replyLine(text string, n int) string {
	return `{"type":"assistant","isSidechain":false,"message":{"role":"assistant","model":"claude-sonnet-4-5",` +
		`"content":[{"type":"text","text":` + strconv.Quote(text) + `}],` +
		`"usage":{"input_tokens":` + fmt.Sprint(n) + `,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":9}}}`
}

// Claude Code appends the turn's last reply to the transcript while Stop
// runs. Stop reads the transcript once and never waits for the client:
// when the reply it names is not there yet it records no fill (not the
// reply before's) and the transcript's path; the reader takes the fill
// from there once the reply is written, and the next prompt records it.
func TestStopNeverWaitsForItsReply(t *testing.T) {
	env, root := testEnv(t)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, transcript(replyLine("looking at the parser", 18000), `{"type":"user","message":{"content":"tool result"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	past := t0.Add(-time.Hour) // the turn's reply before, written a while ago
	if err := os.Chtimes(path, past, past); err != nil {
		t.Fatal(err)
	}
	reads := 0
	scanTranscript = func(p string, limit int64, scan func([]byte) bool) error {
		reads++
		return scanTranscriptTail(p, limit, scan)
	}
	defer func() { scanTranscript = scanTranscriptTail }()
	Run(Stop, marshal(t, map[string]any{"session_id": "s1", "hook_event_name": "Stop", "transcript_path": path,
		"last_assistant_message": "All done: the parser is fixed.", "stop_hook_active": false}), env)
	evs := logLines(t, root, "s1")
	if reads != 1 || len(evs) != 1 || evs[0].CtxTokens != 0 || evs[0].Transcript != path {
		t.Fatalf("%d reads, lines %+v; want one read and a Stop with no figure naming %s", reads, evs, path)
	}
	stopped, _ := evs[0].Time()
	if tokens, _, ok := PendingFill(path, stopped); ok {
		t.Errorf("PendingFill before the reply is written = %d; want nothing yet", tokens)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(replyLine("All done: the parser is fixed.", 91234) + "\n")
	if cerr := f.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	future := t0.Add(time.Second) // written after the Stop (the tests' clock)
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
	if tokens, model, ok := PendingFill(path, stopped); !ok || tokens != 91234 || model != "claude-sonnet-4-5" {
		t.Errorf("PendingFill after the reply = %d %q %v; want 91234", tokens, model, ok)
	}
	Run(UserPromptSubmit, marshal(t, map[string]any{"session_id": "s1", "hook_event_name": "UserPromptSubmit",
		"transcript_path": path, "prompt": "next"}), env)
	if evs := logLines(t, root, "s1"); len(evs) != 2 || evs[1].CtxTokens != 91234 || evs[1].Transcript != "" {
		t.Errorf("lines %+v; want the prompt with 91234", evs)
	}

	// A Stop that finds its reply records the fill itself.
	Run(Stop, marshal(t, map[string]any{"session_id": "s2", "hook_event_name": "Stop", "transcript_path": path,
		"last_assistant_message": "All done: the parser is fixed.", "stop_hook_active": false}), env)
	if evs := logLines(t, root, "s2"); len(evs) != 1 || evs[0].CtxTokens != 91234 || evs[0].Transcript != "" {
		t.Errorf("lines %+v; want Stop with 91234", evs)
	}
}
