package gemini

import (
	"testing"
	"time"
)

// BenchmarkTurnWithHooks measures what st's hooks add to a real Gemini
// CLI turn (start, one model request, end: SessionStart, BeforeAgent's
// neighbours PreCompress and AfterAgent, SessionEnd run): each iteration
// runs one headless turn in a home without st's hooks and one in a home
// with them, and the benchmark reports the ratio of the two times. It
// asserts nothing about speed.
//
//	go test ./e2e/gemini -run '^$' -bench TurnWithHooks -benchtime 5x
func BenchmarkTurnWithHooks(b *testing.B) {
	bare := newRig(b, nil)
	bare.trust()
	hooked := newRig(b, nil)
	hooked.st("hooks", "install", "--for", "gemini")
	hooked.trust()
	// One warm-up turn each: the first run of the client writes its
	// caches.
	bare.gemini("hello")
	hooked.gemini("hello")
	var withHooks, without time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		bare.gemini("hello")
		without += time.Since(start)
		start = time.Now()
		hooked.gemini("hello")
		withHooks += time.Since(start)
	}
	b.ReportMetric(float64(without.Milliseconds())/float64(b.N), "ms/bare-turn")
	b.ReportMetric(float64(withHooks.Milliseconds())/float64(b.N), "ms/st-turn")
	b.ReportMetric(float64(withHooks)/float64(without), "ratio")
}
