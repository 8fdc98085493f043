package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tokenCount is a rollout's token_count record as Codex 0.169 writes it.
func tokenCount(last, window int64) string {
	return fmt.Sprintf(`{"timestamp":"2026-12-02T04:22:25.229Z","ordinal":17,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":113234,"total_tokens":114354},"last_token_usage":{"input_tokens":61234,"cached_input_tokens":52000,"output_tokens":420,"total_tokens":%d},"model_context_window":%d},"rate_limits":null}}`, last, window)
}

func TestCodexContextUsage(t *testing.T) {
	tests := []struct {
		name           string
		tail           []byte
		tokens, window int64
		ok             bool
	}{
		{"latest record wins", transcript(tokenCount(52700, 258400), `{"type":"response_item","payload":{"type":"message"}}`, tokenCount(61654, 258400)), 61654, 258400, true},
		{"no window", transcript(strings.Replace(tokenCount(900, 1), `,"model_context_window":1`, "", 1)), 900, 0, true},
		{"null window", transcript(strings.Replace(tokenCount(900, 1), `:1}`, `:null}`, 1)), 900, 0, true},
		{"null info skipped", transcript(tokenCount(700, 128000), `{"type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{}}}`), 700, 128000, true},
		{"zero record skipped", transcript(tokenCount(700, 128000), tokenCount(0, 128000)), 700, 128000, true},
		{"other record types skipped", transcript(`{"type":"token_usage_record","payload":{"type":"token_count","info":{"last_token_usage":{"total_tokens":5}}}}`), 0, 0, false},
		{"a Claude Code transcript", transcript(usageLine(100, 20, 3000, false)), 0, 0, false},
		{"cut first line skipped", []byte(`t_msg","payload":{"type":"token_count","info":{"last_token_usage":{"total_tokens":61654}}}}` + "\n" + `{"type":"turn_context"}` + "\n"), 0, 0, false},
		{"no final newline", []byte(tokenCount(42, 1000)), 42, 1000, true},
		{"nothing", nil, 0, 0, false},
		{"junk", []byte("\x00\n{\"token_count\": broken\n"), 0, 0, false},
	}
	for _, tt := range tests {
		tokens, window, ok := CodexContextUsage(tt.tail)
		if tokens != tt.tokens || window != tt.window || ok != tt.ok {
			t.Errorf("%s: CodexContextUsage = %d, %d, %v; want %d, %d, %v", tt.name, tokens, window, ok, tt.tokens, tt.window, tt.ok)
		}
	}
}

// codexRecorded is the rollout and the Stop payload a real Codex 0.169
// wrote in e2e/codex (TestStopRecordsContextFill, TestHookPayloads),
// the payload's transcript_path pointing at the rollout.
func codexRecorded(t *testing.T) []byte {
	t.Helper()
	rollout, err := filepath.Abs(filepath.Join("..", "e2e", "codex", "testdata", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := os.ReadFile(filepath.Join("..", "e2e", "codex", "testdata", "payloads", "Stop.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ParsePayload(payload)
	if !ok || p.TranscriptPath == "" || p.Model == "" {
		t.Fatalf("recorded Stop payload without transcript_path or model: %s", payload)
	}
	return []byte(strings.Replace(string(payload), p.TranscriptPath, rollout, 1))
}

// codex-stop's line carries the fill a real rollout gives (its last
// response: 61,234 in and 420 out; Codex's window for the model,
// 258,400) and the payload's model.
func TestCodexStopRecordsContext(t *testing.T) {
	payload := codexRecorded(t)
	env, root := testEnv(t)
	Record(CodexStop, payload, "", env)
	p, _ := ParsePayload(payload)
	evs := logLines(t, root, p.SessionID)
	if len(evs) != 1 {
		t.Fatalf("lines %+v", evs)
	}
	if e := evs[0]; e.Event != "Stop" || e.CtxTokens != 61654 || e.CtxWindow != 258400 || e.Model != "gpt-5.1-codex" {
		t.Errorf("Stop line: %s ctx %d of %d, model %q; want Stop 61654 of 258400, gpt-5.1-codex", e.Event, e.CtxTokens, e.CtxWindow, e.Model)
	}
	// The rollout at the end of a long session: the record is still
	// found in the bounded tail, behind a megabyte of earlier turns.
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "e2e", "codex", "testdata", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "rollout.jsonl")
	pad := strings.Repeat(`{"type":"response_item","payload":{"type":"function_call_output","output":"`+strings.Repeat("x", 1000)+`"}}`+"\n", 1000)
	if err := os.WriteFile(long, append([]byte(tokenCount(5, 5)+"\n"+pad), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	tail, err := ReadTranscriptTail(long, TranscriptTail)
	if err != nil {
		t.Fatal(err)
	}
	if tokens, window, ok := CodexContextUsage(tail); !ok || tokens != 61654 || window != 258400 {
		t.Errorf("long rollout: %d of %d, %v", tokens, window, ok)
	}
}
