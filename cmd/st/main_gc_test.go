package main

import (
	"runtime/debug"
	"testing"
)

// TestCollectLess: st collects at 400% with a 1 GiB soft limit, unless
// GOGC or GOMEMLIMIT is set, which then rule as the runtime reads them.
func TestCollectLess(t *testing.T) {
	gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() { debug.SetGCPercent(gc); debug.SetMemoryLimit(limit) }()
	for _, tt := range []struct {
		env   map[string]string
		gc    int
		limit int64
	}{
		{nil, 400, 1 << 30},
		{map[string]string{"GOGC": "100"}, 100, 1 << 62},
		{map[string]string{"GOGC": "off"}, 100, 1 << 62},
		{map[string]string{"GOMEMLIMIT": "100MiB"}, 100, 1 << 62},
	} {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(1 << 62)
		collectLess(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
		if got := debug.SetGCPercent(100); got != tt.gc {
			t.Errorf("%v: GC percent %d, want %d", tt.env, got, tt.gc)
		}
		if got := debug.SetMemoryLimit(-1); got != tt.limit {
			t.Errorf("%v: memory limit %d, want %d", tt.env, got, tt.limit)
		}
	}
}
