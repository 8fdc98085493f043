package mcp

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pipeClient drives a Run in process with raw JSON-RPC lines.
type pipeClient struct {
	in    *io.PipeWriter
	lines chan string
	done  chan struct{}
}

func runPipe(t *testing.T, cfg Config) (*pipeClient, context.CancelFunc) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	cfg.In, cfg.Out = inR, outW
	ctx, cancel := context.WithCancel(context.Background())
	c := &pipeClient{in: inW, lines: make(chan string, 1000), done: make(chan struct{})}
	go func() {
		Run(ctx, cfg)
		outW.Close()
		close(c.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { cancel(); inW.Close(); <-c.done })
	return c, cancel
}

func (c *pipeClient) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.in, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
}

// next returns the next line that contains substr.
func (c *pipeClient) next(t *testing.T, substr string, limit time.Duration) string {
	t.Helper()
	deadline := time.After(limit)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				t.Fatalf("output closed waiting for %q", substr)
			}
			if strings.Contains(l, substr) {
				return l
			}
		case <-deadline:
			t.Fatalf("no line with %q within %s", substr, limit)
		}
	}
}

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func mkdirs(t *testing.T, root string, dirs ...string) {
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTidyFrame(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	fn := filepath.Join(root, "alice", "inbox", "1714826789012-abcdef.md")
	os.WriteFile(fn, []byte("---\nfrom: bob\n---\nhi\n"), 0o666)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(fn, old, old)
	c, _ := runPipe(t, Config{Root: root, Agent: "alice", TidyEvery: 50 * time.Millisecond})
	c.send(t, initLine, initializedLine)
	c.next(t, `"id":1`, 5*time.Second)
	got := c.next(t, "notifications/claude/channel", 5*time.Second)
	want := `{"jsonrpc":"2.0","method":"notifications/claude/channel","params":{"content":"Tidy check (drift detected):\n- inbox: 1 unaddressed message (oldest 2h old)","meta":{"from":"st-system","kind":"tidy-check","identity":"alice","messageFilename":null,"threadFilename":null}}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Replies escape strings like JSON.stringify: <, >, & and U+2028 raw.
func TestRepliesLikeJSONStringify(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	os.WriteFile(filepath.Join(root, "alice", "inbox", "1714826789012-abcdef.md"), []byte("---\nfrom: bob\n---\n<b>&\u2028</b>\n"), 0o666)
	c, _ := runPipe(t, Config{Root: root, Agent: "alice"})
	c.send(t, initLine, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"st_msg_read","arguments":{"filename":"1714826789012-abcdef.md"}}}`)
	got := c.next(t, `"id":2`, 5*time.Second)
	want := "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"inbox/alice/1714826789012-abcdef.md\"}],\"structuredContent\":{\"filename\":\"1714826789012-abcdef.md\",\"identity\":\"alice\",\"folder\":\"inbox\",\"message\":{\"from\":\"bob\",\"body\":\"<b>&\u2028</b>\\n\"}}}}"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// A client that stops reading must not keep the server from shutting
// down: a channel frame blocked on stdout is abandoned.
func TestShutdownWithStuckStdout(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	big := strings.Repeat("x", 1<<20)
	for _, n := range []string{"1714826789012-aaaaaa.md", "1714826789013-bbbbbb.md"} {
		os.WriteFile(filepath.Join(root, "alice", "inbox", n), []byte(big), 0o666)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		Run(ctx, Config{Root: root, Agent: "alice", Channel: true, In: inR, Out: outW})
		close(done)
	}()
	io.WriteString(inW, initLine+"\n"+initializedLine+"\n")
	// Read the initialize reply and the start of the first frame, so
	// that the frame's write is under way; then stop reading.
	r := bufio.NewReader(outR)
	r.ReadString('\n')
	if _, err := io.ReadFull(r, make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return with stdout blocked")
	}
	if data, _ := os.ReadFile(filepath.Join(root, "alice", "status")); string(data) != "offline\n" {
		t.Errorf("status %q", data)
	}
}
