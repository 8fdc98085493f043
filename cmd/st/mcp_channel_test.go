package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// §8 case 60: the channel frames, files present at start, new files,
// the backstop, and exactly once.
func TestMCPChannel(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	in := filepath.Join(root, "alice", "inbox")
	mcpWriteFile(t, filepath.Join(in, "1714826789012-abcdef.md"), "---\nfrom: bob\nsubject: ping\n---\nhello alice\n")
	mcpWriteFile(t, filepath.Join(in, "1714826789013-bbbbbb.md"), "no frontmatter\n")
	mcpWriteFile(t, filepath.Join(in, "1714826789014-cccccc.md"), "---\nsubject: \"\"\ninReplyTo: 1714826789012-abcdef.md\n---\nb\n")
	mcpWriteFile(t, filepath.Join(in, "1714826789015-dddddd.md"), "---\nfrom: carol\nin-reply-to: nope.md\ninReplyTo: 1714826789012-abcdef.md\n---\nc")
	mcpWriteFile(t, filepath.Join(in, "notes.md"), "---\nfrom: mallory\n---\nraw\n")
	mcpWriteFile(t, filepath.Join(in, ".hidden.md"), "x")
	mcpWriteFile(t, filepath.Join(in, "1714826789012-abcdef.options.json"), "{}")
	mcpWriteFile(t, filepath.Join(in, "readme.txt"), "x")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "ST_TEST_MCP_INTERVALS=100000,100000,200"), "--channel")
	for _, want := range []string{
		`{"content":"Subject: ping\n\nhello alice\n","meta":{"from":"bob","messageFilename":"1714826789012-abcdef.md","threadFilename":"1714826789012-abcdef.md","identity":"alice"}}`,
		`{"content":"no frontmatter\n","meta":{"from":"unknown","messageFilename":"1714826789013-bbbbbb.md","threadFilename":"1714826789013-bbbbbb.md","identity":"alice"}}`,
		`{"content":"b\n","meta":{"from":"unknown","messageFilename":"1714826789014-cccccc.md","threadFilename":"1714826789012-abcdef.md","identity":"alice"}}`,
		`{"content":"c","meta":{"from":"carol","messageFilename":"1714826789015-dddddd.md","threadFilename":"1714826789015-dddddd.md","identity":"alice"}}`,
		`{"content":"[outside .md — non-canonical filename: notes.md]\n\n---\nfrom: mallory\n---\nraw\n","meta":{"from":"outside","messageFilename":"notes.md","threadFilename":"notes.md","identity":"alice"}}`,
	} {
		f, ok := p.frame(5 * time.Second)
		if !ok {
			t.Fatalf("missing frame %s", want)
		}
		if f.raw != want {
			t.Errorf("frame %s\nwant  %s", f.raw, want)
		}
	}
	// A new message, sent through the server itself.
	_, out := p.ok("st_msg_send", map[string]any{"to": "alice", "body": "self", "inReplyTo": "1714826789012-abcdef.md"})
	var sent struct{ Filename string }
	json.Unmarshal([]byte(out), &sent)
	f, ok := p.frame(5 * time.Second)
	if want := `{"content":"self\n","meta":{"from":"alice","messageFilename":"` + sent.Filename + `","threadFilename":"1714826789012-abcdef.md","identity":"alice"}}`; !ok || f.raw != want {
		t.Errorf("new message frame %q, want %s", f.raw, want)
	}
	// The backstop: the inbox is replaced, so the fsnotify watch is gone.
	os.RemoveAll(in)
	time.Sleep(100 * time.Millisecond)
	mcpWriteFile(t, filepath.Join(in, "1714826789099-zzzzzz.md"), "---\nfrom: bob\n---\nlate\n")
	if f, ok := p.frame(5 * time.Second); !ok || !strings.Contains(f.raw, `"messageFilename":"1714826789099-zzzzzz.md"`) {
		t.Errorf("backstop frame %q", f.raw)
	}
	// Exactly once: several backstop ticks later, nothing more.
	if f, ok := p.frame(time.Second); ok {
		t.Errorf("extra frame %s", f.raw)
	}
}

// Plain mode never sends message frames.
func TestMCPPlainModeNoFrames(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "1714826789012-abcdef.md"), "---\nfrom: bob\n---\nhi\n")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "ST_TEST_MCP_INTERVALS=100000,100000,100"))
	p.ok("st_msg_send", map[string]any{"to": "alice", "body": "x"})
	if f, ok := p.frame(500 * time.Millisecond); ok {
		t.Errorf("plain mode frame %s", f.raw)
	}
}

// burstSize is how many messages the burst sender delivers.
const burstSize = 500

// TestMCPBurstSender is the other process of TestMCPChannelBurst: it
// delivers burstSize messages to alice as fast as it can.
func TestMCPBurstSender(t *testing.T) {
	root := os.Getenv("ST_TEST_BURST_ROOT")
	if root == "" {
		t.Skip("helper process only")
	}
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for i := range burstSize {
		m := message.Message{From: "bob", Subject: fmt.Sprintf("n%d", i), Body: []byte(fmt.Sprintf("body %d\n", i))}
		if _, err := inbox.Send(tr, "alice", m, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
}

// Another process sends 500 messages in a burst: each is notified
// exactly once, with the right content and meta.
func TestMCPChannelBurst(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "bob")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"), "--channel")
	p.ok("st_context_read", nil) // the server is up
	cmd := exec.Command(os.Args[0], "-test.run=^TestMCPBurstSender$")
	cmd.Env = append(os.Environ(), "ST_TEST_BURST_ROOT="+root)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sender: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for len(seen) < burstSize {
		f, ok := p.frame(10 * time.Second)
		if !ok {
			t.Fatalf("only %d of %d frames", len(seen), burstSize)
		}
		fn, _ := f.Meta["messageFilename"].(string)
		if seen[fn] {
			t.Errorf("%s notified twice", fn)
		}
		seen[fn] = true
		data := mcpReadFile(t, filepath.Join(root, "alice", "inbox", fn))
		fields, body, _ := message.Parse(data)
		n := strings.TrimPrefix(fields["subject"], "n")
		if _, err := strconv.Atoi(n); err != nil || body != "body "+n+"\n" {
			t.Fatalf("%s: unexpected file %q", fn, data)
		}
		if want := "Subject: n" + n + "\n\nbody " + n + "\n"; f.Content != want {
			t.Errorf("%s: content %q, want %q", fn, f.Content, want)
		}
		if f.Meta["from"] != "bob" || f.Meta["threadFilename"] != fn || f.Meta["identity"] != "alice" || len(f.Meta) != 4 {
			t.Errorf("%s: meta %v", fn, f.Meta)
		}
	}
	if f, ok := p.frame(500 * time.Millisecond); ok {
		t.Errorf("extra frame %s", f.raw)
	}
}

// An archived message a sync brought back into the inbox (its archive
// copy is a byte-identical twin) is never pushed to the session, at start
// or when it appears; live messages around it are.
func TestMCPChannelSkipsArchivedTwin(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	in, ar := filepath.Join(root, "alice", "inbox"), filepath.Join(root, "alice", "archive")
	twin := func(name string) {
		mcpWriteFile(t, filepath.Join(ar, name), "---\nfrom: bob\n---\narchived\n")
		mcpWriteFile(t, filepath.Join(in, name), "---\nfrom: bob\n---\narchived\n")
	}
	twin("1714826789012-aaaaaa.md")
	mcpWriteFile(t, filepath.Join(in, "1714826789013-bbbbbb.md"), "---\nfrom: bob\n---\nlive\n")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "ST_TEST_MCP_INTERVALS=100000,100000,100"), "--channel")
	if f, ok := p.frame(5 * time.Second); !ok || f.Meta["messageFilename"] != "1714826789013-bbbbbb.md" {
		t.Fatalf("first frame %q, want the live message", f.raw)
	}
	twin("1714826789014-cccccc.md")
	mcpWriteFile(t, filepath.Join(in, "1714826789015-dddddd.md"), "---\nfrom: bob\n---\nlater\n")
	if f, ok := p.frame(5 * time.Second); !ok || f.Meta["messageFilename"] != "1714826789015-dddddd.md" {
		t.Fatalf("frame %q, want the later live message", f.raw)
	}
	if f, ok := p.frame(time.Second); ok {
		t.Errorf("extra frame %s", f.raw)
	}
}
