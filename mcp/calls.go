package mcp

import (
	"errors"
	"sync"
	"time"
)

// CallsGrace bounds how long the shutdown waits for the tool calls being
// served. A call's writes take milliseconds; the bound only keeps a call
// stuck on a dead filesystem from holding the exit past the point where
// the client kills the process, "offline" unwritten.
const CallsGrace = time.Second

// errShuttingDown answers a tool call that arrives once the shutdown has
// begun: it would write after "offline".
var errShuttingDown = errors.New("st mcp is shutting down")

// calls tracks the tool calls being served, so that the shutdown lets
// them finish before it writes "offline" and the process exits: a call
// cut off by the exit leaves its temp file behind, and one that writes
// after "offline" overwrites it.
type calls struct {
	mu      sync.Mutex
	running int
	closing bool
	idle    chan struct{} // closed when the last call ends during close
}

// begin counts a call in; false once the shutdown has begun.
func (c *calls) begin() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.running++
	return true
}

// end counts a call out.
func (c *calls) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running--
	if c.running == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
}

// close refuses calls from now on and waits up to grace for the running
// ones to end. It is called once.
func (c *calls) close(grace time.Duration) {
	c.mu.Lock()
	c.closing = true
	if c.running == 0 {
		c.mu.Unlock()
		return
	}
	idle := make(chan struct{})
	c.idle = idle
	c.mu.Unlock()
	wait := time.NewTimer(grace)
	defer wait.Stop()
	select {
	case <-idle:
	case <-wait.C:
	}
}
