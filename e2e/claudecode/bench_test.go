package claudecode

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
)

// BenchmarkTurnWithHooks measures st's own share of a real Claude Code
// turn (`claude -p`: SessionStart, UserPromptSubmit, the model's reply,
// Stop, SessionEnd): pairs of the same turn in two projects wired alike
// by `st init` and `st hooks install --all`, one whose hooks then each
// run /bin/true instead, interleaved; it reports the medians and the
// median ratio (e2ekit.PairedTurns). The harness's payload recorder is
// taken out of both. It also reports the median of Stop's own time in
// those turns, as each Stop recorded it (hook_us). It asserts nothing
// about speed.
//
//	go test ./e2e/claudecode -run '^$' -bench TurnWithHooks -benchtime 10x
func BenchmarkTurnWithHooks(b *testing.B) {
	reply := func(n int, r *Request) Reply { return Text("All done.") }
	noop, hooked := newProject(b, reply), newProject(b, reply)
	for _, p := range []*project{noop, hooked} {
		if err := os.Remove(filepath.Join(p.dir, ".claude", "settings.json")); err != nil {
			b.Fatal(err)
		}
	}
	if err := e2ekit.NoopHooks(filepath.Join(noop.dir, ".claude", "settings.local.json")); err != nil {
		b.Fatal(err)
	}
	e2ekit.PairedTurns(b, func() { noop.claude("hello") }, func() { hooked.claude("hello") })
	// Stop's own time in these real turns, as the hook recorded it.
	var stops []float64
	for _, e := range hooked.events() {
		if e.Event == "Stop" {
			stops = append(stops, float64(e.HookUS)/1000)
		}
	}
	if len(stops) > 0 {
		slices.Sort(stops)
		b.ReportMetric(stops[len(stops)/2], "ms/stop-hook")
	}
}
