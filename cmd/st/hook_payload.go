package main

import (
	"io"
	"time"
)

// payloadGrace is how long, counted from the hook's start, a hook that
// needs its payload only for the event log (the session id) waits for
// stdin to reach EOF. The clients write the payload and close stdin as
// soon as they start the hook, so it is there long before; a stdin that
// never closes costs at most this much.
const payloadGrace = 500 * time.Millisecond

// hookPayload is a hook's stdin, read in the background so that hooks
// which do not need it to answer never wait for it.
type hookPayload struct {
	done chan []byte
	data []byte
	got  bool
}

// startPayload starts reading r (to EOF, bounded like readBounded). A
// terminal is never read: a hook run by hand has no payload.
func startPayload(r io.Reader) *hookPayload {
	p := &hookPayload{done: make(chan []byte, 1)}
	if r == nil || isTerminal(r) {
		p.got = true
		return p
	}
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			data = nil
		}
		p.done <- data
	}()
	return p
}

// wait returns the payload once stdin reached EOF, waiting at most d; nil
// when it did not arrive in time or could not be read.
func (p *hookPayload) wait(d time.Duration) []byte {
	if p.got {
		return p.data
	}
	select {
	case p.data = <-p.done:
		p.got = true
		return p.data
	default:
	}
	timer := time.NewTimer(max(d, 0))
	defer timer.Stop()
	select {
	case p.data = <-p.done:
		p.got = true
	case <-timer.C:
	}
	return p.data
}
