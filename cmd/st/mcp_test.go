package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// channelFrame is a notifications/claude/channel frame as received.
type channelFrame struct {
	Content string         `json:"content"`
	Meta    map[string]any `json:"meta"`
	raw     string
}

// tapConn records what the server sends and takes the channel frames out
// of the stream (the SDK client does not know them).
type tapConn struct {
	mcp.Connection
	frames  chan channelFrame
	mu      sync.Mutex
	results []json.RawMessage // every result received, raw
}

// lastResult returns the raw result of the latest response.
func (c *tapConn) lastResult() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.results[len(c.results)-1]
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			return nil, err
		}
		if resp, ok := msg.(*jsonrpc.Response); ok {
			c.mu.Lock()
			c.results = append(c.results, resp.Result)
			c.mu.Unlock()
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "notifications/claude/channel" {
			var f channelFrame
			if err := json.Unmarshal(req.Params, &f); err != nil {
				panic(err)
			}
			f.raw = string(req.Params)
			c.frames <- f
			continue
		}
		return msg, nil
	}
}

type tapClientTransport struct {
	inner mcp.Transport
	conn  *tapConn
}

func (t *tapClientTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &tapConn{Connection: c, frames: make(chan channelFrame, 10000)}
	return t.conn, nil
}

// mcpProc is a running `st mcp` with a connected client.
type mcpProc struct {
	t      *testing.T
	root   string
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	tap    *tapClientTransport
	stderr *bytes.Buffer
}

// mcpEnv is the environment of a child: a clean one, so the test's own
// variables never leak in.
func mcpEnv(root string, extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(root, "..", "home"),
		"ST_ROOT=" + root,
		"GORACE=atexit_sleep_ms=0", // the race runtime otherwise sleeps 1 s at exit
	}, extra...)
}

// startMCP runs `st mcp args…` with env and connects a client.
func startMCP(t *testing.T, root string, env []string, args ...string) *mcpProc {
	t.Helper()
	stPath, err := exec.LookPath("st")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(stPath, append([]string{"mcp"}, args...)...)
	cmd.Env = env
	p := &mcpProc{t: t, root: root, cmd: cmd, stderr: &bytes.Buffer{}}
	cmd.Stderr = p.stderr
	p.tap = &tapClientTransport{inner: &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}}
	client := mcp.NewClient(&mcp.Implementation{Name: "st-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p.cs, err = client.Connect(ctx, p.tap, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr %q)", err, p.stderr.String())
	}
	t.Cleanup(func() { p.cs.Close() })
	return p
}

// call calls a tool and fails the test on a protocol error.
func (p *mcpProc) call(name string, args map[string]any) *mcp.CallToolResult {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if args == nil {
		args = map[string]any{}
	}
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		p.t.Fatalf("%s: %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed and returns its summary and its
// structuredContent as compact JSON (key order kept).
func (p *mcpProc) ok(name string, args map[string]any) (string, string) {
	p.t.Helper()
	res := p.call(name, args)
	if res.IsError {
		p.t.Fatalf("%s(%v): error %s", name, args, mcpText(res))
	}
	return mcpText(res), mcpRawField(p.t, p.tap.conn.lastResult(), "structuredContent")
}

// fails calls a tool that must fail and returns its text and the
// _meta["st/error"] payload as compact JSON.
func (p *mcpProc) fails(name string, args map[string]any) (string, string) {
	p.t.Helper()
	res := p.call(name, args)
	if !res.IsError {
		p.t.Fatalf("%s(%v): succeeded with %s, want an error", name, args, mcpText(res))
	}
	if res.StructuredContent != nil {
		p.t.Errorf("%s: error result has structuredContent", name)
	}
	meta := mcpRawField(p.t, json.RawMessage(mcpRawField(p.t, p.tap.conn.lastResult(), "_meta")), "st/error")
	return mcpText(res), meta
}

// rawField returns the compacted raw JSON of key in the object data, with
// the key order as sent.
func mcpRawField(t *testing.T, data json.RawMessage, key string) string {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, obj[key]); err != nil {
		t.Fatalf("%s in %s: %v", key, data, err)
	}
	return buf.String()
}

func mcpText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// frame waits for the next channel frame.
func (p *mcpProc) frame(timeout time.Duration) (channelFrame, bool) {
	select {
	case f := <-p.tap.conn.frames:
		return f, true
	case <-time.After(timeout):
		return channelFrame{}, false
	}
}

// exited waits for the process to end after the client went away or a
// signal, and reports how long it took.
func (p *mcpProc) waitExit(t *testing.T, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	done := make(chan struct{})
	go func() {
		p.cs.Wait()
		close(done)
	}()
	for {
		if mcpProcessGone(p.cmd.Process.Pid) {
			return time.Since(start)
		}
		if time.Since(start) > limit {
			t.Fatalf("st mcp still running after %s", limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// processGone reports whether pid has exited (or is a zombie the
// transport has not reaped yet).
func mcpProcessGone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
}

func mcpMkAgent(t *testing.T, root, id string) {
	t.Helper()
	for _, d := range []string{"inbox", "archive"} {
		if err := os.MkdirAll(filepath.Join(root, id, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
}

// mcpWriteFile puts a file in place whole, as st and a sync deliver one
// (a dot-file renamed over the name): a running server that sees the name
// never reads it half-written. A plain os.WriteFile let the channel read
// a message the test was still writing as empty, under load.
func mcpWriteFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func mcpReadFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func mcpToolNames(t *testing.T, p *mcpProc) []string {
	t.Helper()
	res, err := p.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if tl.OutputSchema == nil {
			t.Errorf("%s has no output schema", tl.Name)
		}
		if tl.Title == "" || tl.Description == "" {
			t.Errorf("%s has no title or description", tl.Name)
		}
	}
	slices.Sort(names)
	return names
}
