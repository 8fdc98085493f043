package mcp

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smalltalk-go/st/mcp/front"
)

// st-mcp's front (package front) answers a session's opening and hands
// the session to this server, st-mcp-server, at the first message that
// needs the SDK; run by itself outside channel mode, this server answers
// the opening in process with the same code (server.front). Either way
// the opening is replayed into the SDK: the initialize request (under a
// private id, its reply dropped) and the initialized notification, then
// the message that needed the SDK. From there on the SDK serves
// everything, as it would have from the start.

// replayID is the id of the initialize request replayed into the SDK;
// the client's own initialize was answered by the front already.
var replayID, _ = jsonrpc.MakeID("st:front:initialize")

// front serves the opening on c until a message needs the SDK, and
// returns it with what to replay before it; nil when the session ended
// (stdin closed, ctx ended or the transport failed) first. It answers as
// st-mcp's front does, with the same code (package front).
func (s *server) front(ctx context.Context, c *lineConn) (replay []jsonrpc.Message) {
	var h front.Handover
	for {
		line, err := c.readFrame(ctx)
		if err != nil {
			return nil
		}
		handover, err := h.Answer(line, frameWriter{c})
		if err != nil {
			return nil
		}
		if h.Ready {
			s.initOnce.Do(func() { close(s.ready) })
		}
		if !handover {
			continue
		}
		msg, reply := decodeFrame(line)
		if reply == nil {
			return append(opening(h.Initialize, h.Initialized), msg)
		}
		if c.writeLine(reply) != nil {
			return nil
		}
	}
}

// frameWriter writes the front's frames to c, one write each.
type frameWriter struct{ c *lineConn }

func (w frameWriter) Write(frame []byte) (int, error) {
	if err := w.c.writeFrame(frame); err != nil {
		return 0, err
	}
	return len(frame), nil
}

// opening is what the front answered, to replay into the SDK.
func opening(initialize json.RawMessage, initialized bool) []jsonrpc.Message {
	if initialize == nil {
		return nil
	}
	replay := []jsonrpc.Message{&jsonrpc.Request{ID: replayID, Method: "initialize", Params: initialize}}
	if initialized {
		replay = append(replay, &jsonrpc.Request{Method: "notifications/initialized"})
	}
	return replay
}

// replayConn is the connection the SDK reads after the front: first the
// replayed messages, then the client. The reply to the replayed
// initialize is dropped: the client has had the front's.
type replayConn struct {
	mcp.Connection
	mu      sync.Mutex
	replay  []jsonrpc.Message
	dropped bool
}

func (c *replayConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.mu.Lock()
	if len(c.replay) > 0 {
		msg := c.replay[0]
		c.replay = c.replay[1:]
		c.mu.Unlock()
		return msg, nil
	}
	c.mu.Unlock()
	return c.Connection.Read(ctx)
}

func (c *replayConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && r.ID == replayID {
		c.mu.Lock()
		drop := !c.dropped
		c.dropped = true
		c.mu.Unlock()
		if drop {
			return nil
		}
	}
	return c.Connection.Write(ctx, msg)
}

// connected is a transport whose one connection exists already.
type connected struct{ conn mcp.Connection }

func (t connected) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }
