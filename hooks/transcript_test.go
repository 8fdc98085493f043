package hooks

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

// The fill a prompt's hook falls back on is the newest recorded since
// the last compaction, and never a subagent's.
func TestLastRecordedFill(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines []events.Event
		want  int64
		ok    bool
	}{
		{"none", nil, 0, false},
		{"the newest", []events.Event{{Event: "PostToolUse", CtxTokens: 50000}, {Event: "Stop", CtxTokens: 140000}, {Event: "SessionStart"}}, 140000, true},
		{"not across a compaction", []events.Event{{Event: "Stop", CtxTokens: 140000}, {Event: "PreCompact"}}, 0, false},
		{"not a subagent's", []events.Event{{Event: "Stop", CtxTokens: 90000}, {Event: "PostToolUse", AgentID: "a1", CtxTokens: 3000}}, 90000, true},
	} {
		if got, ok := lastRecordedFill(tt.lines); got != tt.want || ok != tt.ok {
			t.Errorf("%s: %d, %v; want %d, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// A hook reads a transcript's last 8 KiB first and its last 64 KiB only
// when the answer is not there: on random transcripts, each event's line
// and the fill a prompt weighs come out as they do from one read of the
// whole bound, and the second read happens only when the first found
// nothing.
func TestScanTranscriptTailAnswersAsTheWholeTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 36))
	dir := t.TempDir()
	whole := func(path string, limit int64, scan func([]byte) bool) error {
		tail, err := ReadTranscriptTail(path, limit)
		if err == nil {
			scan(tail)
		}
		return err
	}
	defer func() { scanTranscript = scanTranscriptTail }()
	for i := range 400 {
		codex := i%4 == 0 // a Codex rollout, else a Claude Code transcript
		var lines []string
		for range rng.IntN(40) {
			text := strings.Repeat("x", rng.IntN(12<<10))
			switch n := rng.IntN(4); {
			case n < 2:
				lines = append(lines, `{"type":"user","message":{"content":"`+text+`"}}`)
			case codex:
				lines = append(lines, tokenCount(int64(rng.IntN(100000)), 258400))
			case n == 2:
				lines = append(lines, replyLine("reply "+text, rng.IntN(3)*90000))
			default:
				lines = append(lines, usageLine(rng.IntN(2)*5000, 7, 0, rng.IntN(3) == 0))
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("t%d.jsonl", i))
		if err := os.WriteFile(path, transcript(lines...), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, event := range []string{"Stop", "UserPromptSubmit", "PostToolUse"} {
			p := Payload{TranscriptPath: path, LastAssistantMessage: "reply " + strings.Repeat("x", rng.IntN(3))}
			at := time.Unix(1796400000, 0)
			scanTranscript = whole
			want := NewEvent(event, &p, at)
			wantTokens, wantOK := NoteContext(want, &p)
			var reads []int
			scanTranscript = func(path string, limit int64, scan func([]byte) bool) error {
				return scanTranscriptTail(path, limit, func(tail []byte) bool {
					found := scan(tail)
					reads = append(reads, len(tail))
					return found
				})
			}
			got := NewEvent(event, &p, at)
			gotTokens, gotOK := NoteContext(got, &p)
			if *got != *want || gotTokens != wantTokens || gotOK != wantOK {
				t.Fatalf("transcript %d, %s: %+v (%d, %v); from the whole tail %+v (%d, %v)", i, event, *got, gotTokens, gotOK, *want, wantTokens, wantOK)
			}
			if len(reads) == 0 || reads[0] > transcriptFirstRead || len(reads) > 2 {
				t.Fatalf("transcript %d, %s: reads of %v bytes, want the last %d first", i, event, reads, transcriptFirstRead)
			}
		}
	}
}
