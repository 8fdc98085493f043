package gemini

import (
	"path/filepath"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
)

// BenchmarkTurnWithHooks measures st's own share of a real Gemini CLI
// turn (start, one model request, end: SessionStart, BeforeTool's
// neighbours PreCompress and AfterAgent, SessionEnd run): pairs of the
// same headless turn, one in a home whose hooks are st's and one in a
// home with the same hooks each running /bin/true, interleaved; it
// reports the medians and the median ratio (e2ekit.PairedTurns). It
// asserts nothing about speed.
//
//	go test ./e2e/gemini -run '^$' -bench TurnWithHooks -benchtime 10x
func BenchmarkTurnWithHooks(b *testing.B) {
	noop := newRig(b, nil)
	noop.st("hooks", "install", "--for", "gemini")
	if err := e2ekit.NoopHooks(filepath.Join(noop.home, ".gemini", "settings.json")); err != nil {
		b.Fatal(err)
	}
	noop.trust()
	hooked := newRig(b, nil)
	hooked.st("hooks", "install", "--for", "gemini")
	hooked.trust()
	e2ekit.PairedTurns(b, func() { noop.gemini("hello") }, func() { hooked.gemini("hello") })
}
