package mcp

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/mcp/front"
)

// stringifyConn makes the SDK's replies escape strings like
// JSON.stringify (st-compat.md §6.0): encoding/json writes <, >, &,
// U+2028 and U+2029 as \u escapes, which the Node server never does.
// The values are the same; the bytes now are too. It also puts the
// structured content held back from the SDK into its reply: st encoded
// that like JSON.stringify already.
type stringifyConn struct {
	mcp.Connection
	held *heldResults
}

func (c stringifyConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Result != nil {
		cp := *r
		cp.Result = jsstr.UndoGoEscapes(r.Result)
		if c.held != nil {
			cp.Result = c.held.splice(cp.Result)
		}
		msg = &cp
	}
	return c.Connection.Write(ctx, msg)
}

var errNotConnected = errors.New("not connected")

// notify sends one notification with params marshalled like
// JSON.stringify, straight onto the client's connection.
//
// The SDK only sends the notifications of the MCP specification; its
// sending path looks each method up in a fixed table and refuses any
// other. notifications/claude/channel is a Claude Code extension, so it
// is written as a JSON-RPC notification (a request without an id).
// mcp.Connection documents that Write may be called concurrently, so
// these frames interleave safely with the SDK's own replies.
func (s *server) notify(ctx context.Context, method string, params any) error {
	c := s.client
	if c == nil {
		return errNotConnected
	}
	raw, err := jsstr.Marshal(params)
	if err != nil {
		return err
	}
	err = c.Write(ctx, &jsonrpc.Request{Method: method, Params: raw})
	if err != nil && ctx.Err() == nil {
		_ = c.Close() // the client is gone (EPIPE): end the session, as the SDK does; the write error is returned
	}
	return err
}

// frame is the params of a channel notification.
type frame = front.Frame

// messageMeta is a frame's meta for an inbox message.
type messageMeta struct {
	From            string `json:"from"`
	MessageFilename string `json:"messageFilename"`
	ThreadFilename  string `json:"threadFilename"`
	Identity        string `json:"identity"`
}

// sendFrame waits until the client is initialized, then sends f.
func (s *server) sendFrame(ctx context.Context, f frame) error {
	select {
	case <-s.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.notify(ctx, front.ChannelMethod, f)
}
