package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPMaxMessageSize: the MCP tools refuse to send, write or load
// anything over $ST_MAX_MESSAGE_BYTES, with MESSAGE_TOO_LARGE and the
// limit named, and deliver nothing.
func TestMCPMaxMessageSize(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	mcpMkAgent(t, root, "bob")
	big := strings.Repeat("x", 150)
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "1700000000000-aaaaaa.md"), "---\nfrom: bob\n---\n"+big+"\n")
	mcpWriteFile(t, filepath.Join(root, "alice", "context", "now.md"), big+"\n")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "ST_MAX_MESSAGE_BYTES=100"))
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"st_msg_send", map[string]any{"to": "bob", "body": big}},
		{"st_msg_read", map[string]any{"filename": "1700000000000-aaaaaa.md"}},
		{"st_context_read", map[string]any{}},
		{"st_context_write", map[string]any{"body": big}},
		{"st_context_append", map[string]any{"decision": big, "why": "w"}},
	} {
		text, _ := p.fails(c.tool, c.args)
		if !strings.Contains(text, "MESSAGE_TOO_LARGE") || !strings.Contains(text, "maximum of 100 bytes") {
			t.Errorf("%s: %q", c.tool, text)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "bob", "inbox")); len(entries) != 0 {
		t.Errorf("delivered %d files", len(entries))
	}
	if got := mcpReadFile(t, filepath.Join(root, "alice", "context", "now.md")); got != big+"\n" {
		t.Errorf("now.md rewritten: %q", got)
	}
	if text, _ := p.ok("st_context_read", map[string]any{"file": "full"}); !strings.Contains(text, "full") {
		t.Errorf("full context: %q", text)
	}
	p.ok("st_msg_send", map[string]any{"to": "bob", "body": "small"})
}
