package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A client that shuts st mcp down while a tool call is under way (a
// signal, or stdin closed, once the call has started) gets the call's
// write done whole, no temp file left, and the status offline: the
// shutdown lets the call finish before it writes offline and exits.
func TestMCPShutdownMidCall(t *testing.T) {
	stPath, err := exec.LookPath("st")
	if err != nil {
		t.Fatal(err)
	}
	const requests = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"st_context_write","arguments":{"body":"mid-call"}}}
`
	for _, how := range []string{"SIGTERM", "SIGINT", "stdin"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			root, started := filepath.Join(dir, "store"), filepath.Join(dir, "started")
			cmd := exec.Command(stPath, "mcp")
			cmd.Env = mcpEnv(root, "ST_AGENT=alice", "ST_TEST_MCP_SLOW_CALL="+started)
			in, _ := cmd.StdinPipe()
			cmd.Stdout = io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			defer cmd.Process.Kill()
			io.WriteString(in, requests)
			mcpWaitFile(t, started, done)
			switch how {
			case "SIGTERM":
				cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				cmd.Process.Signal(syscall.SIGINT)
			case "stdin":
				in.Close()
			}
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("exit: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still running")
			}
			if got, _ := os.ReadFile(filepath.Join(root, "alice", "context", "now.md")); string(got) != "mid-call\n" {
				t.Errorf("now.md %q: the call was cut off", got)
			}
			if got := mcpReadFile(t, filepath.Join(root, "alice", "status")); got != "offline\n" {
				t.Errorf("status %q, want offline", got)
			}
			mcpNoTemps(t, filepath.Join(root, "alice"))
			mcpNoTemps(t, filepath.Join(root, "alice", "context"))
		})
	}
}

// mcpWaitFile waits until path exists, failing when the process ends
// first or it takes over ten seconds.
func mcpWaitFile(t *testing.T, path string, exited <-chan error) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case err := <-exited:
			t.Fatalf("exited before the call started: %v", err)
		case <-deadline:
			t.Fatal("the call did not start")
		case <-time.After(time.Millisecond):
		}
	}
}
