package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A message over the maximum size is still announced: its header, and a
// note in place of the body that says why and how to read it.
func TestChannelAnnouncesOversizeMessage(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	const name = "1714826789012-abcdef.md"
	body := strings.Repeat("x", 500)
	os.WriteFile(filepath.Join(root, "alice", "inbox", name), []byte("---\nfrom: bob\nsubject: big\n---\n"+body+"\n"), 0o666)
	c, _ := runPipe(t, Config{Root: root, Agent: "alice", Channel: true, MaxMessageBytes: 100})
	c.send(t, initLine, initializedLine)
	line := c.next(t, "notifications/claude/channel", 5*time.Second)
	var f struct {
		Params struct {
			Content string            `json:"content"`
			Meta    map[string]string `json:"meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(line), &f); err != nil {
		t.Fatal(err)
	}
	want := "Subject: big\n\n[message too large: 532 bytes, more than the maximum of 100 bytes (set ST_MAX_MESSAGE_BYTES to change it); read it with `st message read " + name + "`]\n"
	if f.Params.Content != want {
		t.Errorf("content %q\nwant    %q", f.Params.Content, want)
	}
	if f.Params.Meta["from"] != "bob" || f.Params.Meta["messageFilename"] != name {
		t.Errorf("meta %v", f.Params.Meta)
	}
}
