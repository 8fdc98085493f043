package e2ekit

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
)

// NoopCommand is what NoopHooks puts in place of every hook command: the
// cheapest process a client can start.
const NoopCommand = "/bin/true"

// NoopHooks rewrites the JSON settings file at path (a client's hooks as
// `st hooks install` wrote them) so that every hook runs NoopCommand
// instead: the same client with the same hooks, none doing any work, the
// baseline against which st's own share of a turn is measured.
func NoopHooks(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var settings any
	if err := json.Unmarshal(data, &settings); err != nil {
		return err
	}
	noopCommands(settings)
	out, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// noopCommands replaces the "command" of every hook entry under v.
func noopCommands(v any) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["command"].(string); ok && (v["type"] == "command" || v["type"] == nil) {
			v["command"] = NoopCommand
		}
		for _, e := range v {
			noopCommands(e)
		}
	case []any:
		for _, e := range v {
			noopCommands(e)
		}
	}
}

// PairedTurns measures st's own share of a real client's turn: b.N pairs
// of the same turn, one with the client's hooks as no-ops (noop) and one
// with st's (st), the order alternating from pair to pair so that a change
// in the machine's load falls on both. It reports the medians of each
// ("ms/noop-turn", "ms/st-turn") and the median of the pairs' ratios
// ("ratio"; the goal is at most 1.02). It asserts nothing about speed.
// Run it with -benchtime 10x or more.
func PairedTurns(b *testing.B, noop, st func()) {
	b.Helper()
	// One warm-up turn each: a client's first run writes its caches.
	noop()
	st()
	var noops, sts []time.Duration
	var ratios []float64
	timed := func(turn func()) time.Duration {
		start := time.Now()
		turn()
		return time.Since(start)
	}
	b.ResetTimer()
	for i := range b.N {
		var n, s time.Duration
		if i%2 == 0 {
			n, s = timed(noop), timed(st)
		} else {
			s, n = timed(st), timed(noop)
		}
		noops, sts = append(noops, n), append(sts, s)
		ratios = append(ratios, float64(s)/float64(n))
	}
	b.StopTimer()
	b.ReportMetric(float64(median(noops).Microseconds())/1000, "ms/noop-turn")
	b.ReportMetric(float64(median(sts).Microseconds())/1000, "ms/st-turn")
	b.ReportMetric(median(ratios), "ratio")
}

func median[T time.Duration | float64](v []T) T {
	slices.Sort(v)
	return v[len(v)/2]
}
