package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Stop's own time, in process: a turn's end must not wait on the client.
// Claude Code writes the turn's last reply to the transcript while Stop
// runs, so the reply is usually not there yet; Stop reads the transcript
// once either way (it once re-read it every 20 ms for up to 500 ms,
// which this benchmark would show as 500 ms an op), and moves the
// session's inbox cursor without syncing it (a hint, state.go; it once
// synced it twice, most of Stop's time; TestHintStateIsNotSynced fails
// if it does again). Run:
//
//	go test ./hooks -run '^$' -bench Stop
func BenchmarkStopReplyNotWritten(b *testing.B) { benchStop(b, "All done: the parser is fixed.") }

// BenchmarkStopReplyWritten is the same Stop when the reply is there.
func BenchmarkStopReplyWritten(b *testing.B) { benchStop(b, "looking at the parser") }

func benchStop(b *testing.B, last string) {
	root := b.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "alice"), 0o777); err != nil {
		b.Fatal(err)
	}
	opt := Options{Root: root, Agent: "alice", Config: DefaultConfig(), Knobs: KnobsFrom(func(string) string { return "" })}
	path := filepath.Join(root, "s.jsonl")
	tool := `{"type":"user","message":{"content":"` + strings.Repeat("tool output ", 200) + `"}}`
	lines := []string{}
	for range 50 {
		lines = append(lines, replyLine("looking at the parser", 18000), tool)
	}
	if err := os.WriteFile(path, transcript(lines[:len(lines)-1]...), 0o644); err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"session_id":"s1","hook_event_name":"Stop","transcript_path":"` + path +
		`","last_assistant_message":"` + last + `","stop_hook_active":false}`)
	for b.Loop() {
		Run(Stop, payload, opt)
	}
}
