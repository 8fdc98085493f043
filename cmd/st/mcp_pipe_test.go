package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mcpPipeRuns is how many times the piped session is repeated: the lost
// replies depended on goroutine timing, so one run proves little (before
// the fix 198 runs in 200 lost a reply, so 50 runs miss it with a
// probability far below 1e-20).
const mcpPipeRuns = 50

// A client that writes its requests and closes stdin at once gets every
// reply, then the server writes offline and exits 0: the SDK
// used to drop the replies still in flight at EOF, in about half of the
// runs.
func TestMCPPipedRequestsAllAnswered(t *testing.T) {
	stPath, err := exec.LookPath("st")
	if err != nil {
		t.Fatal(err)
	}
	requests := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`
	runs := mcpPipeRuns
	if testing.Short() {
		runs = 20
	}
	failed := 0
	for i := range runs {
		root := filepath.Join(t.TempDir(), "store")
		cmd := exec.Command(stPath, "mcp")
		cmd.Env = mcpEnv(root, "ST_AGENT=alice")
		cmd.Stdin = strings.NewReader(requests)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("run %d: %v (stderr %q)", i, err, stderr.String())
		}
		if problem := mcpPipeProblem(stdout.String()); problem != "" {
			failed++
			if failed <= 3 {
				t.Errorf("run %d: %s; stdout:\n%s", i, problem, stdout.String())
			}
		}
		if got, _ := os.ReadFile(filepath.Join(root, "alice", "status")); string(got) != "offline\n" {
			t.Errorf("run %d: status %q, want offline", i, got)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d runs lost a reply", failed, runs)
	}
}

// mcpPipeProblem checks the server's output: exactly the replies to
// requests 1 and 2, in order, the first with the Node server's
// capabilities byte for byte, the second listing the tools.
func mcpPipeProblem(out string) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if out == "" {
		lines = nil
	}
	if len(lines) != 2 {
		return fmt.Sprintf("want 2 replies, got %d", len(lines))
	}
	for i, line := range lines {
		var reply struct {
			ID     int `json:"id"`
			Result struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &reply); err != nil {
			return "bad reply: " + err.Error()
		}
		if reply.ID != i+1 {
			return "replies out of order"
		}
		if i == 0 && !strings.Contains(line, `"capabilities":{"tools":{"listChanged":true}}`) {
			return "initialize does not answer the Node server's capabilities"
		}
		if i == 1 && len(reply.Result.Tools) != 18 {
			return "tools/list did not list the 18 tools (upstream's 13, the 3 reservation tools, search, ack)"
		}
	}
	return ""
}
