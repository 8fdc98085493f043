package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/mcp/front"
)

// lineTransport is the stdio transport: one JSON-RPC message per line.
//
// The SDK's own stdio transport decodes the input as one JSON stream, so
// a single bad frame (plain text, a lone "{", a trailing NUL, an object
// id, a missing "jsonrpc", nesting too deep) is a read error that ends
// the session: no reply, nothing on stderr, exit 0. Here every line is
// judged alone: a line that is not JSON gets a -32700 parse error, JSON
// that is not a JSON-RPC message gets -32600 invalid request, and the
// server reads on. Only a line over maxFrame or a failing stdin ends the
// session, and Err then says why.
type lineTransport struct {
	in       io.Reader
	out      io.Writer
	maxFrame int

	mu   sync.Mutex
	conn *lineConn
}

// open starts reading the client's lines.
func (t *lineTransport) open() *lineConn {
	c := &lineConn{out: t.out, frames: make(chan frameOrErr), closed: make(chan struct{})}
	go c.readLines(t.in, t.maxFrame)
	t.mu.Lock()
	t.conn = c
	t.mu.Unlock()
	return c
}

// Err returns why the connection failed, or nil when it ended in order
// (end of stdin, the client closing stdout, or not connected yet).
func (t *lineTransport) Err() error {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fatal
}

// frameOrErr is one line read, or the error that ended reading.
type frameOrErr struct {
	line []byte
	err  error
}

// lineConn is one client over stdio.
type lineConn struct {
	out    io.Writer
	frames chan frameOrErr
	closed chan struct{}

	writeMu   sync.Mutex
	closeOnce sync.Once

	mu    sync.Mutex
	fatal error // why the transport failed; nil for an orderly end
}

// readLines sends every non-blank line of in to c.frames, then the error
// that ended the input (io.EOF for an orderly end). It runs apart from
// Read so that Close unblocks a Read waiting on stdin.
func (c *lineConn) readLines(in io.Reader, maxFrame int) {
	r := front.NewReader(in, maxFrame)
	for {
		line, err := r.Line()
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case c.frames <- frameOrErr{line: line}:
			case <-c.closed:
				return
			}
		}
		if err != nil {
			select {
			case c.frames <- frameOrErr{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// Read returns the next JSON-RPC message. Lines that are not one are
// answered with an error reply here and skipped.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		line, err := c.readFrame(ctx)
		if err != nil {
			return nil, err
		}
		msg, reply := decodeFrame(line)
		if reply == nil {
			return msg, nil
		}
		if err := c.writeLine(reply); err != nil {
			return nil, err
		}
	}
}

// readFrame returns the next line from the client, not decoded.
func (c *lineConn) readFrame(ctx context.Context) ([]byte, error) {
	var f frameOrErr
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case f = <-c.frames:
	}
	if f.err != nil {
		var tooLarge front.ErrFrameTooLarge
		switch {
		case errors.As(f.err, &tooLarge):
			c.fail(f.err)
		case f.err != io.EOF:
			c.fail(fmt.Errorf("reading from the client: %w", f.err))
		}
		return nil, f.err
	}
	return f.line, nil
}

// decodeFrame returns the message in line, or else the error reply to
// send for it.
func decodeFrame(line []byte) (jsonrpc.Message, []byte) {
	if reply := front.BadFrame(line); reply != nil {
		return nil, reply
	}
	line = bytes.TrimSpace(line)
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, front.ErrorReply(frameID(line), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	return msg, nil
}

// frameID returns the id of a JSON-RPC object when it is a valid one (a
// string or a number), else nil (the null id).
func frameID(line []byte) json.RawMessage {
	var f struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &f) != nil || len(f.ID) == 0 {
		return nil
	}
	switch c := f.ID[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return f.ID
	}
	return nil
}

// Write sends one message as one line. A failed write is a transport
// failure: the client can no longer hear us.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if data, ok := encodeResult(msg); ok {
		return c.writeFrame(data)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeLine(data)
}

// encodeResult writes a successful reply as EncodeMessage does, newline
// included, without re-validating its result: the SDK encoded it (or st
// did, see heldResults), and a large tool result would be scanned again
// for nothing. ok is false for anything else, left to EncodeMessage.
func encodeResult(msg jsonrpc.Message) (frame []byte, ok bool) {
	r, isResp := msg.(*jsonrpc.Response)
	if !isResp || r.Error != nil || len(r.Result) == 0 {
		return nil, false
	}
	var id []byte
	switch v := r.ID.Raw().(type) {
	case int64:
		id = strconv.AppendInt(nil, v, 10)
	case string:
		id = jsstr.AppendString(nil, v)
		if strings.ContainsAny(v, "\u2028\u2029") {
			return nil, false // Go escapes these two, JSON.stringify does not
		}
	default:
		return nil, false
	}
	return front.ResultFrame(id, r.Result), true
}

// writeLine writes data and a newline in one write.
func (c *lineConn) writeLine(data []byte) error {
	return c.writeFrame(append(data, '\n'))
}

// writeFrame writes one line, its newline included, in one write.
func (c *lineConn) writeFrame(frame []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(frame)
	if err != nil && !errors.Is(err, syscall.EPIPE) {
		// EPIPE is the client closing our stdout: it went away, an
		// orderly end. Any other failure is the transport's.
		c.fail(fmt.Errorf("writing to the client: %w", err))
	}
	return err
}

// fail records the first transport failure.
func (c *lineConn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fatal == nil {
		c.fatal = err
	}
}

func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }
