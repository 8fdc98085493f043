package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// channelSession is st-mcp --channel on pipes the test writes and reads
// line by line, as a client's.
type channelSession struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan string
	stderr strings.Builder
}

// startChannel runs bin --channel (bin: a path, or st-mcp from PATH) as
// agent alice of root.
func startChannel(t *testing.T, root, bin string) *channelSession {
	t.Helper()
	if !strings.Contains(bin, "/") {
		p, err := exec.LookPath(bin)
		if err != nil {
			t.Fatal(err)
		}
		bin = p
	}
	s := &channelSession{t: t, lines: make(chan string, 100)}
	s.cmd = exec.Command(bin, "--channel")
	s.cmd.Env = mcpEnv(root, "ST_AGENT=alice", "ST_TEST_MCP_INTERVALS=100000,100000,200")
	s.cmd.Stderr = &s.stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { s.in.Close(); s.cmd.Wait() })
	return s
}

func (s *channelSession) send(text string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, text); err != nil {
		s.t.Fatal(err)
	}
}

// next is the next line from the server, failing the test after 10 s.
func (s *channelSession) next(what string) string {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("waiting for %s: the server ended (stderr %q)", what, s.stderr.String())
		}
		return l
	case <-time.After(10 * time.Second):
		s.t.Fatalf("waiting for %s: nothing in 10 s", what)
	}
	return ""
}

const channelOpening = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`

// A channel session whose inbox is empty is opened by the front; the
// first message to arrive hands it to the server, which pushes it once,
// and a request the client was halfway through writing reaches the
// server whole.
func TestMCPChannelFrontHandsOverOnNews(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	s := startChannel(t, root, "st-mcp")
	s.send(channelOpening)
	if l := s.next("initialize"); !strings.Contains(l, `"id":1,"result":{"capabilities":{"experimental":{"claude/channel"`) {
		t.Fatalf("initialize answered %.200s", l)
	}
	if l := s.next("tools/list"); !strings.Contains(l, `"id":2,`) || !strings.Contains(l, `"st_msg_reply"`) {
		t.Fatalf("tools/list answered %.200s", l)
	}
	s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call",`) // half a request
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "1714826789012-abcdef.md"), "---\nfrom: bob\nsubject: ping\n---\nhello\n")
	if l := s.next("the push"); !strings.Contains(l, `"method":"notifications/claude/channel"`) || !strings.Contains(l, `"messageFilename":"1714826789012-abcdef.md"`) {
		t.Fatalf("got %.300s, want the message pushed", l)
	}
	s.send(`"params":{"name":"st_agents","arguments":{}}}` + "\n")
	if l := s.next("the tool call"); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":3,"result":{"content"`) {
		t.Fatalf("tool call answered %.300s", l)
	}
	// Exactly once: a second message is pushed, the first not again.
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "1714826789013-bbbbbb.md"), "---\nfrom: bob\n---\nagain\n")
	if l := s.next("the second push"); !strings.Contains(l, `"messageFilename":"1714826789013-bbbbbb.md"`) {
		t.Fatalf("got %.300s, want the second message pushed", l)
	}
	select {
	case l := <-s.lines:
		t.Fatalf("extra line %.300s", l)
	case <-time.After(time.Second):
	}
}

// Without st-mcp-server beside it, st-mcp --channel still opens Claude
// Code's session with an empty inbox, its probe included, and names the
// missing server when the first message arrives: the front, not the
// server, served the opening and watched the inbox.
func TestMCPChannelFrontWithoutServer(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	lone := filepath.Join(t.TempDir(), "st-mcp")
	self, err := exec.LookPath("st-mcp")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	opening, err := os.ReadFile("../../e2e/claudecode/testdata/mcp-channel-opening.jsonl") // Claude Code's, captured
	if err != nil {
		t.Fatal(err)
	}
	s := startChannel(t, root, lone)
	s.send(string(opening))
	if l := s.next("the probe"); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":"server-discover-probe-1","error":{"code":-32022,`) {
		t.Fatalf("the probe answered %.200s", l)
	}
	if l := s.next("initialize"); !strings.Contains(l, `"id":0,"result":{"capabilities":{"experimental":{"claude/channel"`) {
		t.Fatalf("initialize answered %.200s", l)
	}
	if l := s.next("tools/list"); !strings.Contains(l, `"st_msg_reply"`) {
		t.Fatalf("tools/list answered %.200s", l)
	}
	// What the server would not push does not hand the session over: a
	// sidecar, a file being written, an archived twin. The front still
	// answers after several looks at the inbox.
	in, archive := filepath.Join(root, "alice", "inbox"), filepath.Join(root, "alice", "archive")
	mcpWriteFile(t, filepath.Join(in, "1714826789011-zzzzzz.options.json"), "{}")
	mcpWriteFile(t, filepath.Join(in, ".1714826789011-yyyyyy.md.tmp"), "x")
	mcpWriteFile(t, filepath.Join(archive, "1714826789010-xxxxxx.md"), "---\nfrom: bob\n---\nold\n")
	mcpWriteFile(t, filepath.Join(in, "1714826789010-xxxxxx.md"), "---\nfrom: bob\n---\nold\n")
	time.Sleep(600 * time.Millisecond) // three backstop looks
	s.send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}` + "\n")
	if l := s.next("tools/list again"); !strings.HasPrefix(l, `{"jsonrpc":"2.0","id":9,"result":`) {
		t.Fatalf("tools/list answered %.200s", l)
	}
	mcpWriteFile(t, filepath.Join(in, "1714826789012-abcdef.md"), "---\nfrom: bob\n---\nhi\n")
	if l, ok := <-s.lines; ok {
		t.Fatalf("a line after the news: %.200s", l)
	}
	err = s.cmd.Wait()
	if code := s.cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(s.stderr.String(), "the MCP server st-mcp-server is not installed next to") {
		t.Fatalf("exit %d (%v), stderr %q; want 1 naming st-mcp-server", code, err, s.stderr.String())
	}
}

// The front's backstop: with the inbox folder made anew, its watch is
// gone, and the next look at the inbox still hands a message over.
func TestMCPChannelFrontBackstop(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	s := startChannel(t, root, "st-mcp")
	s.send(channelOpening)
	s.next("initialize")
	s.next("tools/list")
	in := filepath.Join(root, "alice", "inbox")
	if err := os.RemoveAll(in); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	mcpWriteFile(t, filepath.Join(in, "1714826789099-zzzzzz.md"), "---\nfrom: bob\n---\nlate\n")
	if l := s.next("the push"); !strings.Contains(l, `"messageFilename":"1714826789099-zzzzzz.md"`) {
		t.Fatalf("got %.300s, want the message pushed", l)
	}
}
