package claudecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A session started without ST_AGENT, in a project wired by `st init`
// and `st hooks install --all`: st's MCP server runs (as a throwaway
// agent) and its hooks say nothing, the client logs no error from
// either, and when the session ends no anon-<rand6> folder is left in
// $ST_ROOT to pile up in `st agents`, overview and the dashboard.
func TestNoAgentLeavesNoFootprint(t *testing.T) {
	p := newProject(t, func(n int, r *Request) Reply { return Text("hello") })
	p.extra = append(p.extra, "ST_AGENT=")
	before := rootEntries(t, p.root)
	for range 2 {
		r := p.claude("say hi")
		p.checkClean(r)
		if !strings.Contains(r.debug, `MCP server "st": Successfully connected`) {
			t.Fatalf("st's MCP server did not connect; debug log ends:\n%s", tail(r.debug, 3000))
		}
	}
	// claude stops the server with SIGINT as it exits; the server's own
	// exit may trail a little.
	deadline := time.Now().Add(10 * time.Second)
	for {
		after := rootEntries(t, p.root)
		if strings.Join(after, " ") == strings.Join(before, " ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("$ST_ROOT holds %v after two agent-less sessions, want %v as before", after, before)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// rootEntries lists the agent folders in root.
func rootEntries(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, filepath.Base(e.Name()))
	}
	return out
}
