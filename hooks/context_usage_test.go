package hooks

import (
	"os"
	"path/filepath"
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
