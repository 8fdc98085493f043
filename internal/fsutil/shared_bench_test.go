package fsutil

import (
	"fmt"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/glustertest"
)

// BenchmarkReadersAcrossMounts: readers of one status through one
// GlusterFS mount at once, each opening a tree for each read as an st
// process does and taking every reader st has for a rewritten file in
// turn, while another mount rewrites it as fast as it can, every 50 ms
// or every second; on a volume that keeps the client's metadata cache
// (performance.stat-prefetch on, GlusterFS's default) and on one without
// it. It reports, per 20 s window, the rewrites and reads a second, the
// reads slower than 100 ms and the reads that failed (docs/sharedfs.md).
// Not run by CI:
//
//	go test ./internal/fsutil -run '^$' -bench ReadersAcrossMounts -benchtime 1x
func BenchmarkReadersAcrossMounts(b *testing.B) {
	volumes := []struct {
		name  string
		store func(testing.TB, int) *glustertest.Store
	}{
		{"stat-prefetch=on", glustertest.ForTest},
		{"stat-prefetch=off", glustertest.ForTestStatPrefetchOff},
	}
	for _, vol := range volumes {
		for _, pause := range []time.Duration{0, 50 * time.Millisecond, time.Second} {
			for _, readers := range []int{1, 2, 6} {
				b.Run(fmt.Sprintf("%s/pause=%s/readers=%d", vol.name, pause, readers), func(b *testing.B) {
					writer, readerRoot := statusStore(b, vol.store(b, 2))
					for b.Loop() {
						window := readAcrossMounts(b, writer, readerRoot, pause, readers, 20*time.Second, nil)
						b.ReportMetric(float64(window.rewrites)/window.took.Seconds(), "rewrites/s")
						b.ReportMetric(float64(window.reads)/window.took.Seconds(), "reads/s")
						b.ReportMetric(float64(window.slow), "slow-reads")
						b.ReportMetric(float64(window.failed), "failed-reads")
					}
				})
			}
		}
	}
}
