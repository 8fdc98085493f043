package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// The hooks that read their session's log, in process, on a busy
// session's log (about 100 KB, past the 64 KiB the hooks read): a prompt
// and a failing tool call read it newest first and stop once answered,
// where they once decoded all 64 KiB of it. A short process pays for
// every new page it touches, so allocs/op and B/op are the figures to
// watch. Run:
//
//	go test ./hooks -run '^$' -bench 'UserPromptSubmit|PostToolUseFailure' -benchmem
func BenchmarkUserPromptSubmit(b *testing.B) {
	benchLogReader(b, UserPromptSubmit, `{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"Run the tests."}`)
}

// BenchmarkPostToolUseFailure is post-tool-use-failure on the same log.
func BenchmarkPostToolUseFailure(b *testing.B) {
	benchLogReader(b, PostToolUseFailure, `{"session_id":"s1","hook_event_name":"PostToolUseFailure","tool_name":"Bash",`+
		`"tool_input":{"command":"go vet ./..."},"error":"Exit code 1"}`)
}

func benchLogReader(b *testing.B, event, payload string) {
	root := b.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "alice"), 0o777); err != nil {
		b.Fatal(err)
	}
	t, err := fsutil.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer t.Close()
	ctx, ctx0 := context.Background(), int64(20000)
	for turn := range 40 {
		lines := []*events.Event{{Event: "UserPromptSubmit", Bytes: 120}}
		for call := range 5 {
			ctx0 += 1500
			lines = append(lines,
				&events.Event{Event: "PreToolUse", Tool: "Bash", Command: fmt.Sprintf("go test ./pkg%d/...", call), Input: "2880d282b346"},
				&events.Event{Event: "PostToolUse", Tool: "Bash", Command: fmt.Sprintf("go test ./pkg%d/...", call), Input: "2880d282b346",
					Bytes: 4000, ToolMS: 300, CtxTokens: ctx0, Model: "claude-opus-4"})
		}
		lines = append(lines, &events.Event{Event: "Stop", CtxTokens: ctx0, Model: "claude-opus-4"})
		for i, e := range lines {
			e.TS, e.Session, e.Cwd, e.HookUS = fmt.Sprintf("2026-01-02T03:%02d:%02d.000Z", turn, i), "s1", "/home/user/proj", 2000
			if err := events.Append(ctx, t, "alice", e); err != nil {
				b.Fatal(err)
			}
		}
	}
	opt := Options{Root: root, Agent: "alice", Config: DefaultConfig(), Knobs: KnobsFrom(func(string) string { return "" })}
	log := filepath.Join(root, events.Path("alice", "s1"))
	fi, err := os.Stat(log)
	if err != nil || fi.Size() <= events.TailBytes {
		b.Fatalf("log %v, %v", fi, err)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Run(event, []byte(payload), opt)
		b.StopTimer()
		if err := os.WriteFile(log, data, 0o644); err != nil { // the hook appended its line
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
