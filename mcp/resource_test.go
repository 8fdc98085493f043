package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The resource tools hold to the maximum message size: add refuses a
// bigger resource, read refuses to load a bigger file, and ls still lists
// it from its head.
func TestResourceToolsAreBounded(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive", "alice/resources")
	const big = "1714826789012-abcdef.md"
	os.WriteFile(filepath.Join(root, "alice", "resources", big),
		[]byte("---\nurl: \"https://x.y/big\"\n---\n"+strings.Repeat("d", 500)), 0o666)
	c, _ := runPipe(t, Config{Root: root, Agent: "alice", MaxMessageBytes: 100})
	c.send(t, initLine, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"st_resource_add","arguments":{"url":"https://x.y/z","body":"`+strings.Repeat("b", 200)+`"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"st_resource_read","arguments":{"filename":"`+big+`"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"st_resource_ls","arguments":{}}}`)
	// Calls are served concurrently: take the three replies in any order.
	c.next(t, `"id":1,`, 5*time.Second)
	replies := map[string]string{}
	for len(replies) < 3 {
		line := c.next(t, `"id":`, 5*time.Second)
		replies[line[strings.Index(line, `"id":`):][:7]] = line
	}
	for _, tt := range []struct{ id, want string }{
		{`"id":2,`, `resource too large: 229 bytes, more than the maximum of 100 bytes`},
		{`"id":3,`, `resource too large: 531 bytes, more than the maximum of 100 bytes`},
		{`"id":4,`, `"url":"https://x.y/big"`},
	} {
		if got := replies[tt.id]; !strings.Contains(got, tt.want) {
			t.Errorf("reply %s: %s\nwant it to hold %s", tt.id, got, tt.want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "alice", "resources")); len(entries) != 1 {
		t.Errorf("%d resource files, want only the planted one", len(entries))
	}
}
