package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	mcpInitLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	mcpInitdLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// The real server over a pipe: each malformed frame gets its JSON-RPC
// error, the server keeps serving (the tools/list after them is
// answered), and the end of stdin is still an orderly exit 0 with
// nothing on stderr. The SDK's transport used to end the session at the
// first bad frame, silently, with exit 0.
func TestMCPMalformedFramesOverPipe(t *testing.T) {
	bad := []struct {
		line string
		code int
	}{
		{"not json at all", -32700},
		{"{", -32700},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"}` + "\x00", -32700},
		{strings.Repeat("{\"a\":", 12000) + "1" + strings.Repeat("}", 12000), -32700},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, -32600},
		{`{"id":4,"method":"tools/list"}`, -32600},
	}
	var in strings.Builder
	in.WriteString(mcpInitLine + "\n" + mcpInitdLine + "\n")
	for _, b := range bad {
		in.WriteString(b.line + "\n")
	}
	in.WriteString(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n")

	root := filepath.Join(t.TempDir(), "store")
	stPath, _ := exec.LookPath("st")
	cmd := exec.Command(stPath, "mcp")
	cmd.Env = mcpEnv(root, "ST_AGENT=alice")
	cmd.Stdin = strings.NewReader(in.String())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("exit %v, stderr %q; want 0 and nothing", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != len(bad)+2 {
		t.Fatalf("%d replies, want %d:\n%s", len(lines), len(bad)+2, stdout.String())
	}
	// The error replies come in the order of the frames; the handlers'
	// replies may come before or among them.
	var errs []string
	var initOK, listOK bool
	for _, l := range lines {
		switch {
		case strings.Contains(l, `"error"`):
			errs = append(errs, l)
		case strings.HasPrefix(l, `{"jsonrpc":"2.0","id":1,"result":`):
			initOK = true
		case strings.HasPrefix(l, `{"jsonrpc":"2.0","id":2,"result":`) && strings.Contains(l, `"st_msg_send"`):
			listOK = true
		}
	}
	if !initOK || !listOK || len(errs) != len(bad) {
		t.Fatalf("want initialize and tools/list answered and %d errors; got:\n%s", len(bad), stdout.String())
	}
	for i, b := range bad {
		var reply struct {
			Error struct{ Code int } `json:"error"`
		}
		json.Unmarshal([]byte(errs[i]), &reply)
		if reply.Error.Code != b.code {
			t.Errorf("frame %.40q: reply %s, want code %d", b.line, errs[i], b.code)
		}
	}
	if got := mcpReadFile(t, filepath.Join(root, "alice", "status")); got != "offline\n" {
		t.Errorf("status %q, want offline", got)
	}
}

// A frame over the limit cannot be answered: the server says so on
// stderr, writes offline and exits 1.
func TestMCPFrameTooLargeOverPipe(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	stPath, _ := exec.LookPath("st")
	cmd := exec.Command(stPath, "mcp", "--channel")
	cmd.Env = mcpEnv(root, "ST_AGENT=alice", "ST_MAX_MESSAGE_BYTES=1048576") // frame bound 16 MiB
	stdin, _ := cmd.StdinPipe()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		io.WriteString(stdin, mcpInitLine+"\n"+mcpInitdLine+"\n")
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"st_msg_send","arguments":{"to":"bob","body":"`)
		stdin.Write(bytes.Repeat([]byte("x"), 17<<20)) // fails once the server stops reading
		stdin.Close()
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running")
	}
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %v, want 1", err)
	}
	if want := "st: a frame from the client is over the 16777216-byte limit (16 MiB); stopping\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), `"id":1,"result"`) {
		t.Errorf("initialize not answered: %.200s", stdout.String())
	}
	if got := mcpReadFile(t, filepath.Join(root, "alice", "status")); got != "offline\n" {
		t.Errorf("status %q, want offline", got)
	}
}

// With a maximum message size whose escaped form needs more than the
// default frame bound, a tool argument over the maximum still reaches the
// tool, which refuses it naming the limit, and the server goes on: the
// frame bound grows with ST_MAX_MESSAGE_BYTES (a 17 MiB frame used to
// end the server, silently).
func TestMCPBigMaxMessageSizeReachesTheTool(t *testing.T) {
	const limit = 3 << 20 // frame bound 19 MiB
	root := filepath.Join(t.TempDir(), "store")
	stPath, _ := exec.LookPath("st")
	cmd := exec.Command(stPath, "mcp")
	cmd.Env = mcpEnv(root, "ST_AGENT=alice", "ST_MAX_MESSAGE_BYTES="+strconv.Itoa(limit))
	body := strings.Repeat("x", 17<<20)
	requests := mcpInitLine + "\n" + mcpInitdLine + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"st_msg_send","arguments":{"to":"bob","body":"` + body + `"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}` + "\n"
	// Stdin stays open until both answers are out: at the end of stdin
	// the server waits for pending answers only DrainTimeout long (tested
	// in ./mcp), and a 17 MiB call under the race detector on a loaded
	// machine can take longer.
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go io.WriteString(stdin, requests)
	killer := time.AfterFunc(5*time.Minute, func() { cmd.Process.Kill() })
	defer killer.Stop()
	var sendReply, listReply string
	lines := bufio.NewReader(stdout)
	for sendReply == "" || listReply == "" {
		l, err := lines.ReadString('\n')
		switch {
		case strings.HasPrefix(l, `{"jsonrpc":"2.0","id":2,`):
			sendReply = l
		case strings.HasPrefix(l, `{"jsonrpc":"2.0","id":3,`):
			listReply = l
		}
		if err != nil {
			break
		}
	}
	stdin.Close()
	io.Copy(io.Discard, lines)
	if err := cmd.Wait(); err != nil || stderr.Len() > 0 {
		t.Fatalf("exit %v, stderr %q; want 0 and nothing", err, stderr.String())
	}
	if !strings.Contains(sendReply, `"isError":true`) || !strings.Contains(sendReply, "MESSAGE_TOO_LARGE") || !strings.Contains(sendReply, "maximum of "+strconv.Itoa(limit)+" bytes") {
		t.Errorf("send over the maximum: %.300s", sendReply)
	}
	if !strings.Contains(listReply, `"st_msg_send"`) {
		t.Errorf("tools/list after it: %.200s", listReply)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "bob", "inbox")); len(entries) != 0 {
		t.Errorf("bob's inbox holds %d files", len(entries))
	}
}
