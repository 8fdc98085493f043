// Command st keeps the durable state of AI coding agents in plain folders:
// inboxes, statuses and restart context under $ST_ROOT. It is a drop-in
// replacement for the Node st (smalltalk); see README.md.
package main

import (
	"os"
	"runtime/debug"

	// Grow the main goroutine's stack once and put the heap's start on
	// one huge page, early: fewer page faults at every start (see the
	// packages).
	_ "github.com/smalltalk-go/st/internal/heapstart"
	_ "github.com/smalltalk-go/st/internal/stackstart"
)

func main() {
	collectLess(os.LookupEnv)
	os.Exit(run(newApp(os.Args, os.Stdin, os.Stdout, os.Stderr, os.LookupEnv)))
}

// collectLess lets the heap grow to five times the live data between
// collections instead of twice, unless GOGC or GOMEMLIMIT says otherwise.
// st lives for milliseconds and keeps little: `message ls --json` over
// 10,000 messages allocates about 5 MB, and the default collected twice
// in it, about 10% of its CPU time (and a stop of the world that a loaded
// machine stretches). The soft limit keeps a huge store bounded: near
// 1 GiB the collector works harder again.
func collectLess(lookup func(string) (string, bool)) {
	_, gogc := lookup("GOGC")
	_, limit := lookup("GOMEMLIMIT")
	if gogc || limit {
		return
	}
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(1 << 30)
}
