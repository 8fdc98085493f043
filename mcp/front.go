package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The front answers a session's opening, initialize and tools/list, from
// bytes made at build time (front_gen.go), and builds the SDK server only
// at the first other message. A client starts the server and lists its
// tools at every session's start, whether or not it calls one; building
// the SDK server, its 18 tools and its JSON-RPC connection for that was a
// third of st-mcp's time from exec to exit (docs/performance.md). The
// bytes are the SDK's own answers for each protocol revision it supports,
// which TestFrontGenerated checks, so a client cannot tell the two apart.
//
// When the SDK takes over, the opening is replayed into it in process:
// the initialize request (under a private id, its reply dropped) and the
// initialized notification, then the message that needed the SDK. From
// there on the SDK serves everything, as it would have from the start.

// replayID is the id of the initialize request replayed into the SDK;
// the client's own initialize was answered by the front already.
var replayID, _ = jsonrpc.MakeID("st:front:initialize")

// front serves the opening on c until a message needs the SDK, and
// returns it with what to replay before it; nil when the session ended
// (stdin closed, ctx ended or the transport failed) first.
func (s *server) front(ctx context.Context, c *lineConn) (replay []jsonrpc.Message) {
	var initialize json.RawMessage // its params, once answered
	var initialized bool
	for {
		line, err := c.readFrame(ctx)
		if err != nil {
			return nil
		}
		r, ok := parseFront(line)
		var answer string
		switch {
		case !ok:
		case r.method == "initialize" && initialize == nil && r.id != nil:
			answer = frontInitialize[offeredVersion(r.params)]
		case r.method == "notifications/initialized" && initialize != nil && !initialized && r.id == nil:
			initialized = true
			s.initOnce.Do(func() { close(s.ready) })
			continue
		case r.method == "tools/list" && initialize != nil && r.id != nil && noParams(r.params):
			answer = frontToolsList
		}
		if answer == "" {
			msg, reply := decodeFrame(line)
			if reply == nil {
				return append(opening(initialize, initialized), msg)
			}
			if c.writeLine(reply) != nil {
				return nil
			}
			continue
		}
		if c.writeFrame(resultFrame(r.id, answer)) != nil {
			return nil
		}
		if r.method == "initialize" {
			initialize = r.params
		} else {
			s.initOnce.Do(func() { close(s.ready) })
		}
	}
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

// frontRequest is a line the front may answer.
type frontRequest struct {
	id     []byte // as written, which is how the SDK writes it back; nil in a notification
	method string
	params json.RawMessage
}

// parseFront reads line as a JSON-RPC 2.0 request or notification with
// no member but the four, each plainly written: keys as they are spelled,
// an integer or printable ASCII id. ok is false for anything else, which
// is left to the SDK's decoder.
func parseFront(line []byte) (r frontRequest, ok bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(line, &fields) != nil || string(fields["jsonrpc"]) != `"2.0"` {
		return r, false
	}
	for k, v := range fields {
		switch k {
		case "jsonrpc":
		case "id":
			if !plainID(v) {
				return r, false
			}
			r.id = v
		case "method":
			if json.Unmarshal(v, &r.method) != nil {
				return r, false
			}
		case "params":
			r.params = v
		default:
			return r, false
		}
	}
	return r, true
}

// plainID reports whether id is one the SDK writes back byte for byte:
// an integer in canonical form that a float64 holds exactly, or a string
// of printable ASCII with nothing escaped.
func plainID(id []byte) bool {
	if len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' {
		for _, b := range id[1 : len(id)-1] {
			if b < 0x20 || b > 0x7e || b == '"' || b == '\\' {
				return false
			}
		}
		return true
	}
	digits := bytes.TrimPrefix(id, []byte("-"))
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(id) > 1) {
		return false
	}
	for _, b := range digits {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// offeredVersion is the protocolVersion of initialize's params when they
// hold nothing the SDK could answer differently or refuse: only the three
// fields of the handshake, each of its type. Otherwise it is "", which
// leaves the request to the SDK.
func offeredVersion(params json.RawMessage) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(params, &fields) != nil {
		return ""
	}
	var version string
	var caps mcp.ClientCapabilities
	var info mcp.Implementation
	for k, v := range fields {
		var err error
		switch k {
		case "protocolVersion":
			err = json.Unmarshal(v, &version)
		case "capabilities":
			err = json.Unmarshal(v, &caps)
		case "clientInfo":
			err = json.Unmarshal(v, &info)
		default:
			return ""
		}
		if err != nil {
			return ""
		}
	}
	return version
}

// noParams reports whether a request carries no parameters: a tools/list
// with a cursor or _meta is the SDK's.
func noParams(params json.RawMessage) bool {
	switch string(params) {
	case "", "null", "{}":
		return true
	}
	return false
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
