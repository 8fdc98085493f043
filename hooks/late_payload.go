package hooks

import (
	"io"
	"os"
	"time"
)

// The session-boundary hooks (session-start, pre-compact, the codex
// hooks) answer without their payload, but their event line wants its
// session_id (without it the line would go to no-session.jsonl).
// Serve reads their stdin in the background and record waits for it at
// most payloadGrace from the hook's start: the clients write the payload
// and close stdin as soon as they start a hook, so it is there long
// before, and a stdin that never closes costs at most this much.
const payloadGrace = 500 * time.Millisecond

// latePayload is a stdin being read in the background.
type latePayload struct {
	done chan []byte
	data []byte
	got  bool
}

// readLate starts reading r to EOF (bounded like readBounded). A
// character device (a terminal, /dev/null) is not read: a hook run by
// hand has no payload.
func readLate(r io.Reader) *latePayload {
	p := &latePayload{done: make(chan []byte, 1)}
	if f, ok := r.(*os.File); r == nil || ok && isCharDevice(f) {
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

func isCharDevice(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// wait returns the payload once stdin reached EOF, waiting at most d;
// nil when it did not arrive in time or could not be read.
func (p *latePayload) wait(d time.Duration) []byte {
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

// logPayload is the payload for the event line of a hook that read none:
// the late one, waited for until payloadGrace after the hook's start.
func (o *Options) logPayload() []byte {
	if o.late == nil {
		return nil
	}
	return o.late.wait(payloadGrace - time.Since(o.Start))
}
