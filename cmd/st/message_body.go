package main

import (
	"time"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

const defaultStdinTimeout = 10 * time.Second

// Built with New, not Msg: package-level values must cost nothing at
// start-up, and Msg's fmt.Sprintf does.
var (
	errNoBodyTerminal = sterr.New("", "no message body — pass `-m <body>` or pipe the body via stdin (e.g. `echo hi | st message send bob`)", nil)
	errNoBodyTimeout  = sterr.New("", "no message body — timed out reading stdin (it was connected but sent no data and never closed). Pass `-m <body>`, or pipe a body that reaches EOF. Tune the window with $ST_STDIN_TIMEOUT_MS.", nil)
)

// readBody returns -m's value when given (other than "-"); otherwise all of stdin, bounded
// by $ST_STDIN_TIMEOUT_MS for the whole read. A terminal stdin is refused
// rather than waited on.
func (a *app) readBody(flag *string) ([]byte, error) {
	if flag != nil && *flag != "-" {
		return []byte(*flag), nil
	}
	if isTerminal(a.stdin) {
		return nil, errNoBodyTerminal
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := layout.ReadAllWithin(a.stdin, "message", a.env.MaxMessageBytes())
		done <- result{data, err}
	}()
	timer := time.NewTimer(stdinTimeout(a.env.Get("ST_STDIN_TIMEOUT_MS")))
	defer timer.Stop()
	select {
	case r := <-done:
		return r.data, r.err
	case <-timer.C:
		return nil, errNoBodyTimeout
	}
}

// stdinTimeout parses a positive decimal number of milliseconds; anything
// else means the default.
func stdinTimeout(v string) time.Duration {
	ms, ok := layout.Decimal(v)
	if !ok || !(ms > 0) || ms > 1e12 {
		return defaultStdinTimeout
	}
	return time.Duration(ms * float64(time.Millisecond))
}
