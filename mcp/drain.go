package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTimeout bounds how long the end of stdin waits for the answers
// to the requests read before it.
const DrainTimeout = 10 * time.Second

// drainConn holds back the end of the client's stream until every
// request read before it has been answered.
//
// The SDK treats a read error, EOF included, as the end of the
// connection: it cancels the requests still in flight and refuses to
// write their replies. A client that writes its requests and closes
// stdin at once (`printf '…' | st mcp`) then gets no reply, or only the
// first, depending on how fast the handlers run. The Node server answers
// them all. So Read reports the EOF only once the replies are out, the
// client's stdout has failed, the connection is closed, ctx has ended, or
// DrainTimeout has passed.
type drainConn struct {
	mcp.Connection
	mu      sync.Mutex
	pending map[jsonrpc.ID]int // requests read and not yet answered
	broken  bool               // a write failed or Close was called: no reply can get out
	changed chan struct{}      // closed and replaced on every change
}

func newDrainConn(c mcp.Connection) *drainConn {
	return &drainConn{Connection: c, pending: map[jsonrpc.ID]int{}, changed: make(chan struct{})}
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.waitAnswered(ctx)
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.update(func() { c.pending[req.ID]++ })
	}
	return msg, nil
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	resp, isResp := msg.(*jsonrpc.Response)
	if err != nil || isResp {
		c.update(func() {
			if err != nil {
				c.broken = true
			}
			if isResp {
				if c.pending[resp.ID]--; c.pending[resp.ID] <= 0 {
					delete(c.pending, resp.ID)
				}
			}
		})
	}
	return err
}

// Close also ends a wait for replies: the Connection contract says Close
// unblocks a Read.
func (c *drainConn) Close() error {
	c.update(func() { c.broken = true })
	return c.Connection.Close()
}

// update changes the state under the lock and wakes the waiter.
func (c *drainConn) update(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
}

// waitAnswered returns once no request is waiting for its reply, no
// reply can be written any more, ctx has ended or DrainTimeout passed.
func (c *drainConn) waitAnswered(ctx context.Context) {
	deadline := time.NewTimer(DrainTimeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		done, changed := len(c.pending) == 0 || c.broken, c.changed
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		}
	}
}
