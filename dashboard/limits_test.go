package dashboard

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTooLarge: files over the maximum message size are not read whole:
// the pages say "file too large, N bytes" (the message page shows its
// head), and a message over it cannot be sent from the page.
func TestTooLarge(t *testing.T) {
	big := "---\nfrom: bob\nsubject: huge\n---\nHEAD" + strings.Repeat("x", 300) + "TAIL\n"
	root := writeStore(t, with(agentFolders, map[string]string{
		"alice/inbox/1700000000000-aaaaaa.md":             big,
		"alice/context/now.md":                            strings.Repeat("n", 201),
		"alice/context/decisions/1700000000000-dec001.md": strings.Repeat("d", 202),
		"alice/context/decisions/1700000000001-dec002.md": "- small decision\n",
	}))
	s := newServer(t, root, func(c *Config) { c.MaxMessageBytes = 200 })
	_, body := get(t, s, "/agent/alice")
	for _, want := range []string{"file too large, 201 bytes", "file too large, 202 bytes", "small decision", "huge"} {
		if !strings.Contains(body, want) {
			t.Errorf("agent page lacks %q", want)
		}
	}
	_, body = get(t, s, "/agent/alice/message/1700000000000-aaaaaa.md")
	if !strings.Contains(body, fmt.Sprintf("file too large, %d bytes", len(big))) || !strings.Contains(body, "HEAD") || strings.Contains(body, "TAIL") {
		t.Errorf("message page: %s", body)
	}
	res, _ := do(t, s.Handler(), post(s, "/agent/bob/send", url.Values{"from": {"alice"}, "body": {strings.Repeat("y", 300)}}))
	if res.StatusCode != 400 {
		t.Errorf("sending 300 bytes over a 200-byte limit: %d", res.StatusCode)
	}
	if names := inboxNames(t, root, "bob"); len(names) != 0 {
		t.Errorf("delivered %v", names)
	}
}

// TestFleetNowBounded: the fleet row's line of a 1 GiB (sparse) now.md
// costs the scan only the head of the file, not the file twice over.
func TestFleetNowBounded(t *testing.T) {
	root := writeStore(t, map[string]string{
		"alice/status":         "busy\n",
		"alice/context/now.md": "\n## Rewriting the **lexer**\n\nbody\n",
	})
	if err := os.Truncate(filepath.Join(root, "alice", "context", "now.md"), 1<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := newServer(t, root)
	_, body := get(t, s, "/")
	runtime.ReadMemStats(&after)
	if !strings.Contains(body, "Rewriting the lexer") {
		t.Errorf("the fleet row lacks now.md's line")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("the first scan and the fleet page allocated %d bytes for a 1 GiB now.md", n)
	}
}
