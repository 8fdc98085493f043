package trace

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The model calls of a transcript the real Claude Code wrote against the
// e2e mock (dashboard/testdata): one per reply, with the usage the mock
// reported and the tools each reply called, in order.
func TestReadTranscriptOfTheRealClient(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "dashboard", "testdata", "transcript-tail.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	calls := ReadTranscript(f)
	var got []string
	for _, c := range calls {
		got = append(got, c.ID+" "+c.Model+" "+itoa(c.Usage.Input)+"/"+itoa(c.Usage.Output)+" "+strings.Join(c.Tools, ","))
		if c.Start.IsZero() || c.End.Before(c.Start) {
			t.Errorf("%s: start %v, end %v", c.ID, c.Start, c.End)
		}
	}
	want := []string{
		"msg_mock_2 claude-opus-5-5 50000/10 Bash",
		"msg_mock_3 claude-opus-5-5 100/10 Bash",
		"msg_mock_4 claude-opus-5-5 100/10 Agent",
		"msg_mock_6 claude-opus-5-5 100/10 mcp__st__st_msg_send",
		"msg_mock_7 claude-opus-5-5 140000/10 ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A reply streamed over several lines is one call, with the last line's
// usage; lines that are not JSON, and replies without usage, are skipped.
// Its input tokens count the cached ones, read and written, as the
// GenAI conventions define them (Anthropic's input_tokens do not).
func TestReadTranscriptLines(t *testing.T) {
	in := `not json
{"type":"user","timestamp":"2026-12-01T10:00:00.000Z","message":{"content":"hi"}}
{"type":"assistant","timestamp":"2026-12-01T10:00:02.000Z","message":{"id":"m1","model":"claude-x","content":[{"type":"thinking"}],"usage":{"input_tokens":7,"output_tokens":1}}}
{"type":"assistant","timestamp":"2026-12-01T10:00:03.000Z","message":{"id":"m1","model":"claude-x","content":[{"type":"tool_use","name":"Read"}],"usage":{"input_tokens":7,"output_tokens":30,"cache_read_input_tokens":5,"cache_creation_input_tokens":2}}}
{"type":"assistant","timestamp":"2026-12-01T10:00:04.000Z","message":{"id":"m2","model":"claude-x","content":[]}}
`
	calls := ReadTranscript(strings.NewReader(in))
	if len(calls) != 1 {
		t.Fatalf("calls = %+v, want one", calls)
	}
	c := calls[0]
	if c.Usage != (Usage{Input: 14, Output: 30, CacheRead: 5, CacheCreation: 2}) || strings.Join(c.Tools, ",") != "Read" ||
		c.Start.Format("15:04:05") != "10:00:00" || c.End.Format("15:04:05") != "10:00:03" {
		t.Errorf("call = %+v", c)
	}
}

func FuzzReadTranscript(f *testing.F) {
	f.Add([]byte(`{"type":"assistant","timestamp":"2026-12-01T10:00:02.000Z","message":{"id":"m1","model":"claude-x","usage":{"input_tokens":7}}}`))
	f.Add([]byte("{}\n\n{\"type\":\"assistant\"}"))
	f.Add([]byte(`{"timestamp":"2026-12-02T04:24:14.094Z","type":"turn_context","payload":{"model":"gpt-5.1-codex"}}
{"timestamp":"2026-12-02T04:24:14.384Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":[\"ls\"]}","call_id":"c"}}
{"timestamp":"2026-12-02T04:24:14.393Z","type":"token_usage_record","payload":{"response_id":"r","usage":{"input_tokens":5,"cached_input_tokens":4}}}`))
	f.Add([]byte(`{"id":"g","timestamp":"2026-12-01T10:00:03.000Z","type":"gemini","tokens":{"input":5,"cached":4},"toolCalls":[{"name":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := readTranscript(strings.NewReader(string(data)))
		if len(tr.Calls) > MaxSpans || len(tr.Tools) > MaxSpans || len(tr.Turns) > MaxSpans {
			t.Errorf("%d calls, %d tools, %d turns: over MaxSpans", len(tr.Calls), len(tr.Tools), len(tr.Turns))
		}
		for _, c := range tr.Calls {
			if c.ID == "" || c.End.Before(c.Start) {
				t.Errorf("bad call %+v", c)
			}
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A rollout the real Codex wrote (e2e/codex): a model call per
// token_usage_record with the usage Codex recorded (its input_tokens
// count the cached ones already) and the model of the turn_context
// before it; the turn; the shell call from its function_call to its
// output.
func TestReadCodexRollout(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "e2e", "codex", "testdata", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := readTranscript(f)
	var got []string
	for _, c := range tr.Calls {
		got = append(got, c.ID+" "+c.Model+" "+itoa(c.Usage.Input)+"/"+itoa(c.Usage.CacheRead)+"/"+itoa(c.Usage.Output))
	}
	if want := "resp_0 gpt-5.1-codex 52000/48000/700, resp_1 gpt-5.1-codex 61234/52000/420"; strings.Join(got, ", ") != want {
		t.Errorf("calls: %s\nwant   %s", strings.Join(got, ", "), want)
	}
	if len(tr.Turns) != 1 || !tr.Turns[0].End.After(tr.Turns[0].Start) {
		t.Errorf("turns: %+v, want one, ended", tr.Turns)
	}
	if len(tr.Tools) != 1 || tr.Tools[0].Name != "exec_command" || tr.Tools[0].Command != "echo hi" || !tr.Tools[0].End.After(tr.Tools[0].Start) {
		t.Errorf("tool calls: %+v, want exec_command echo hi, answered", tr.Tools)
	}
}

// A chat record as Gemini CLI 0.61.0 writes it: a metadata line, then
// each message, a gemini message written again whole as its tokens and
// tool calls come in (the last one wins), $set lines between.
func TestReadGeminiChatRecord(t *testing.T) {
	in := `{"sessionId":"g1","projectHash":"h","startTime":"2026-12-01T10:00:00.000Z","lastUpdated":"2026-12-01T10:00:00.000Z","kind":"main"}
{"id":"u1","timestamp":"2026-12-01T10:00:01.000Z","type":"user","content":[{"text":"write notes.txt"}]}
{"$set":{"lastUpdated":"2026-12-01T10:00:01.000Z"}}
{"id":"g1m","timestamp":"2026-12-01T10:00:03.000Z","type":"gemini","content":"","thoughts":[],"tokens":null,"model":"gemini-3-pro"}
{"id":"g1m","timestamp":"2026-12-01T10:00:03.000Z","type":"gemini","content":"","thoughts":[],"tokens":{"input":5000,"output":70,"cached":4000,"thoughts":0,"tool":0,"total":5070},"model":"gemini-3-pro","toolCalls":[{"id":"c1","name":"write_file","args":{}}]}
`
	calls := ReadTranscript(strings.NewReader(in))
	if len(calls) != 1 {
		t.Fatalf("calls = %+v, want one", calls)
	}
	c := calls[0]
	if c.ID != "g1m" || c.Model != "gemini-3-pro" || c.Usage != (Usage{Input: 5000, Output: 70, CacheRead: 4000}) ||
		strings.Join(c.Tools, ",") != "write_file" || c.Start.Format("15:04:05") != "10:00:01" {
		t.Errorf("call = %+v", c)
	}
}
