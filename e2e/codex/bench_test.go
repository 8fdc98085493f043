package codex

import (
	"path/filepath"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
)

// BenchmarkTurnWithHooks measures st's own share of a real Codex turn
// (`codex exec`: SessionStart, the model's reply, Stop): pairs of the
// same turn, one with st's hooks and one with the same hooks each
// running /bin/true (trusted alike), interleaved; it reports the medians
// and the median ratio (e2ekit.PairedTurns). It asserts nothing about
// speed.
//
//	go test ./e2e/codex -run '^$' -bench TurnWithHooks -benchtime 10x
func BenchmarkTurnWithHooks(b *testing.B) {
	noop := newRig(b, nil)
	noop.st("hooks", "install", "--for", "codex")
	if err := e2ekit.NoopHooks(filepath.Join(noop.codexHome, "hooks.json")); err != nil {
		b.Fatal(err)
	}
	noop.trustAll()
	hooked := newRig(b, nil)
	hooked.st("hooks", "install", "--for", "codex")
	hooked.trustAll()
	e2ekit.PairedTurns(b, func() { noop.codex("say hi") }, func() { hooked.codex("say hi") })
}
