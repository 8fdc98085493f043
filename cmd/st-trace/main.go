// Command st-trace sends finished sessions to an OpenTelemetry backend
// as traces (package trace builds them, package trace/otlp sends them).
// Run it as `st trace export`, which checks the arguments and execs this
// binary, or let the session-end hook start it detached: the
// OpenTelemetry SDK is large, and keeping it out of st keeps every other
// st command's start-up fast.
package main

import (
	"os"

	"github.com/smalltalk-go/st/trace"
	"github.com/smalltalk-go/st/trace/otlp"
)

func main() {
	os.Exit(trace.Main(os.Args[1:], os.Stdout, os.Stderr, otlp.Send))
}
