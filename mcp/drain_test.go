package mcp

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scriptedConn reads the given messages, then EOF; writes fail with
// writeErr.
type scriptedConn struct {
	mcp.Connection
	in       []jsonrpc.Message
	writeErr error
}

func (c *scriptedConn) Read(context.Context) (jsonrpc.Message, error) {
	if len(c.in) == 0 {
		return nil, io.EOF
	}
	m := c.in[0]
	c.in = c.in[1:]
	return m, nil
}

func (c *scriptedConn) Write(context.Context, jsonrpc.Message) error { return c.writeErr }
func (c *scriptedConn) Close() error                                 { return nil }

// readEOF reads the one request, then starts the read that meets EOF and
// returns a channel that receives its result.
func readEOF(t *testing.T, c *drainConn) <-chan error {
	t.Helper()
	if _, err := c.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		done <- err
	}()
	return done
}

func TestDrainConnHoldsEOFUntilAnswered(t *testing.T) {
	id, _ := jsonrpc.MakeID(float64(7))
	req := &jsonrpc.Request{ID: id, Method: "tools/list"}
	for _, c := range []struct {
		name    string
		release func(c *drainConn)
	}{
		{"reply written", func(c *drainConn) { c.Write(context.Background(), &jsonrpc.Response{ID: id}) }},
		{"connection closed", func(c *drainConn) { c.Close() }},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := newDrainConn(&scriptedConn{in: []jsonrpc.Message{req}})
			done := readEOF(t, conn)
			select {
			case err := <-done:
				t.Fatalf("EOF (%v) reported before the request was answered", err)
			case <-time.After(50 * time.Millisecond):
			}
			c.release(conn)
			select {
			case err := <-done:
				if !errors.Is(err, io.EOF) {
					t.Errorf("read error %v, want EOF", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("EOF still held back")
			}
		})
	}
}

// A reply that cannot be written (the client's stdout is gone) does not
// hold the EOF back: no other reply can get out either.
func TestDrainConnBrokenWriteReleasesEOF(t *testing.T) {
	id, _ := jsonrpc.MakeID("a")
	other, _ := jsonrpc.MakeID("b")
	conn := newDrainConn(&scriptedConn{
		in:       []jsonrpc.Message{&jsonrpc.Request{ID: id, Method: "x"}, &jsonrpc.Request{ID: other, Method: "y"}},
		writeErr: errors.New("broken pipe"),
	})
	conn.Read(context.Background())
	done := readEOF(t, conn)
	conn.Write(context.Background(), &jsonrpc.Response{ID: id})
	select {
	case err := <-done:
		if !errors.Is(err, io.EOF) {
			t.Errorf("read error %v, want EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("EOF still held back after a failed write")
	}
}

// Notifications get no reply and hold nothing back.
func TestDrainConnNotificationsNotAwaited(t *testing.T) {
	conn := newDrainConn(&scriptedConn{in: []jsonrpc.Message{&jsonrpc.Request{Method: "notifications/initialized"}}})
	done := readEOF(t, conn)
	select {
	case err := <-done:
		if !errors.Is(err, io.EOF) {
			t.Errorf("read error %v, want EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("EOF held back for a notification")
	}
}
