package hooks

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/smalltalk-go/st/events"
)

// A prompt's hook reads its session's log newest first and stops, and
// skips undecoded the lines that cannot change its answers; it must
// reach the answers that decoding the whole tail gives.
func TestPromptScanMatchesWholeTail(t *testing.T) {
	tr, _ := openTree(t)
	rnd := rand.New(rand.NewPCG(3, 4))
	kinds := []string{"PostToolUse", "PostToolUse", "PostToolUse", "Stop", "PreCompact", "UserPromptSubmit", "PostToolUseFailure"}
	tools := []string{"Bash", "Read", "Edit", "Grep"}
	for session := range 60 {
		id := fmt.Sprintf("s%d", session)
		n := rnd.IntN(4) * rnd.IntN(400)
		for i := range n {
			e := &events.Event{TS: "2026-01-02T03:04:05.000Z", Event: kinds[rnd.IntN(len(kinds))], Session: id,
				Tool: tools[rnd.IntN(len(tools))], Command: fmt.Sprintf("echo %d", i)}
			if e.Tool == "Edit" && rnd.IntN(4) > 0 {
				e.Tool = "Bash"
			}
			if rnd.IntN(60) == 0 {
				e.CtxTokens = int64(1000 + rnd.IntN(150000))
			}
			if rnd.IntN(5) == 0 {
				e.AgentID = "a1"
			}
			if err := events.Append(context.Background(), tr, "alice", e); err != nil {
				t.Fatal(err)
			}
		}
		whole, err := events.Tail(tr, "alice", id, events.TailBytes)
		if err != nil {
			t.Fatal(err)
		}
		wantFill, wantHave := lastRecordedFill(whole)
		wantWork := RealWork(whole)
		var s promptScan
		if err := events.EachBack(tr, events.Path("alice", id), events.TailBytes, s.keep, s.add); err != nil {
			t.Fatal(err)
		}
		if s.fill != wantFill || s.haveFill != wantHave || s.work.real() != wantWork {
			t.Errorf("%d events: scan %d, %v, work %v; whole tail %d, %v, work %v",
				n, s.fill, s.haveFill, s.work.real(), wantFill, wantHave, wantWork)
		}
	}
}
