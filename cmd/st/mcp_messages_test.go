package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// st_msg_ls, st_msg_read, st_msg_archive, st_msg_thread, st_msg_reply.
func TestMCPMessageTools(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "bob")
	a := "1714826789012-aaaaaa.md"
	b := "1714826789013-bbbbbb.md"
	c := "1714826789014-cccccc.md"
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", a), "---\nfrom: bob\nsubject: \"re: x\"\ntags: [a, \"b c\"]\npriority: high\n---\nhi\n")
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", b), "untyped\n")
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "notes.md"), "outside\n")
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "1714826789012-aaaaaa.options.json"), "{}")
	mcpWriteFile(t, filepath.Join(root, "alice", "archive", c), "---\nfrom: carol\n---\nold\n")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"), "--channel")

	// ls
	sum, out := p.ok("st_msg_ls", nil)
	if want := `{"matches":["` + a + `","` + b + `","notes.md"],"archive":false,"identity":"alice"}`; out != want || sum != "3 messages in inbox" {
		t.Errorf("ls: %q %s", sum, out)
	}
	sum, out = p.ok("st_msg_ls", map[string]any{"archive": true, "since": 1714826789014})
	if want := `{"matches":["` + c + `"],"archive":true,"identity":"alice"}`; out != want || sum != "1 message in archive" {
		t.Errorf("ls archive: %q %s", sum, out)
	}
	if _, out = p.ok("st_msg_ls", map[string]any{"fromFilter": "bob"}); out != `{"matches":["`+a+`"],"archive":false,"identity":"alice"}` {
		t.Errorf("ls fromFilter: %s", out)
	}
	if sum, out = p.ok("st_msg_ls", map[string]any{"identity": "bob"}); out != `{"matches":[],"archive":false,"identity":"bob"}` || sum != "0 messages in inbox" {
		t.Errorf("ls bob: %q %s", sum, out)
	}
	if res := p.call("st_msg_ls", map[string]any{"since": -1}); !res.IsError {
		t.Errorf("since -1 accepted")
	}
	if txt, _ := p.fails("st_msg_ls", map[string]any{"fromFilter": "../bob"}); txt != "INVALID_IDENTITY: invalid agent name: ../bob" {
		t.Errorf("ls fromFilter traversal: %q", txt)
	}

	// read
	sum, out = p.ok("st_msg_read", map[string]any{"filename": a})
	if want := `{"filename":"` + a + `","identity":"alice","folder":"inbox","message":{"from":"bob","body":"hi\n","subject":"re: x","tags":["a","b c"],"priority":"high"}}`; out != want || sum != "inbox/alice/"+a {
		t.Errorf("read: %q %s", sum, out)
	}
	if _, out = p.ok("st_msg_read", map[string]any{"filename": b}); !strings.Contains(out, `"message":{"from":"","body":"untyped\n"}`) {
		t.Errorf("read untyped: %s", out)
	}
	if _, out = p.ok("st_msg_read", map[string]any{"filename": "notes.md"}); !strings.Contains(out, `"message":{"from":"outside","body":"outside\n"}`) {
		t.Errorf("read outside: %s", out)
	}
	if sum, _ = p.ok("st_msg_read", map[string]any{"filename": c, "fromArchive": true}); sum != "archive/alice/"+c {
		t.Errorf("read archive: %q", sum)
	}
	txt, meta := p.fails("st_msg_read", map[string]any{"filename": "1714826789099-zzzzzz.md"})
	if txt != "MESSAGE_NOT_FOUND: not found in inbox or archive: 1714826789099-zzzzzz.md" ||
		meta != `{"code":"MESSAGE_NOT_FOUND","message":"not found in inbox or archive: 1714826789099-zzzzzz.md","details":{"identity":"alice","filename":"1714826789099-zzzzzz.md"}}` {
		t.Errorf("read missing: %q %s", txt, meta)
	}
	bad := "1714826789015-dddddd.md"
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", bad), "---\nfrom: Bob Smith\n---\nx\n")
	if txt, _ := p.fails("st_msg_read", map[string]any{"filename": bad}); txt != "INVALID_IDENTITY: invalid agent name: Bob Smith" {
		t.Errorf("read invalid from: %q", txt)
	}
	badIRT := "1714826789016-eeeeee.md"
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", badIRT), "---\nfrom: bob\nin-reply-to: nope\n---\nx\n")
	if txt, _ := p.fails("st_msg_read", map[string]any{"filename": badIRT}); txt != "INVALID_FILENAME: invalid filename: nope" {
		t.Errorf("read invalid in-reply-to: %q", txt)
	}

	// Traversal in filename arguments.
	for _, name := range []string{"../bob/inbox/" + a, "../../etc/passwd", "..", "x/y.md", ".hidden.md", "/etc/hosts", "1714826789012-aaaaaa.options.json"} {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"st_msg_read", map[string]any{"filename": name}},
			{"st_msg_archive", map[string]any{"filename": name}},
			{"st_msg_thread", map[string]any{"filename": name}},
			{"st_msg_reply", map[string]any{"thread": name, "body": "x"}},
		} {
			if txt, _ := p.fails(c.tool, c.args); txt != "INVALID_FILENAME: invalid filename: "+name {
				t.Errorf("%s %q: %q", c.tool, name, txt)
			}
		}
		for _, tool := range []string{"st_msg_ls", "st_msg_read", "st_msg_archive", "st_msg_thread"} {
			args := map[string]any{"identity": name, "filename": a}
			if txt, _ := p.fails(tool, args); !strings.HasPrefix(txt, "INVALID_") && !strings.HasPrefix(txt, "IDENTITY_NOT_HOSTED: ") {
				t.Errorf("%s identity %q: %q", tool, name, txt)
			}
		}
	}

	// thread: a in alice's inbox, a reply in bob's inbox.
	reply := "1714826789020-ffffff.md"
	mcpWriteFile(t, filepath.Join(root, "bob", "inbox", reply), "---\nfrom: alice\nin-reply-to: "+a+"\n---\nyes\n")
	sum, out = p.ok("st_msg_thread", map[string]any{"filename": reply})
	if want := `{"messages":[{"filename":"` + a + `","identity":"alice","folder":"inbox","message":{"from":"bob","body":"hi\n","subject":"re: x","tags":["a","b c"],"priority":"high"}},{"filename":"` + reply + `","identity":"bob","folder":"inbox","message":{"from":"alice","body":"yes\n","inReplyTo":"` + a + `"}}]}`; out != want || sum != "2 messages in thread" {
		t.Errorf("thread: %q\n%s\nwant %s", sum, out, want)
	}
	txt, meta = p.fails("st_msg_thread", map[string]any{"filename": "1714826789099-zzzzzz.md"})
	if txt != "MESSAGE_NOT_FOUND: not found in inbox or archive: 1714826789099-zzzzzz.md" || !strings.Contains(meta, `"details":{"identity":"","filename":"1714826789099-zzzzzz.md"}`) {
		t.Errorf("thread missing: %q %s", txt, meta)
	}

	// reply
	sum, out = p.ok("st_msg_reply", map[string]any{"thread": a, "body": "ok"})
	var r struct{ Filename, Identity string }
	json.Unmarshal([]byte(out), &r)
	if out != `{"filename":"`+r.Filename+`","identity":"bob"}` || sum != "replied: bob/"+r.Filename {
		t.Errorf("reply: %q %s", sum, out)
	}
	if got := mcpReadFile(t, filepath.Join(root, "bob", "inbox", r.Filename)); got != "---\nfrom: alice\nsubject: \"re: re: x\"\nin-reply-to: "+a+"\n---\nok\n" {
		t.Errorf("reply file %q", got)
	}
	_, out = p.ok("st_msg_reply", map[string]any{"thread": c, "body": "ok", "subject": "own"})
	json.Unmarshal([]byte(out), &r)
	if got := mcpReadFile(t, filepath.Join(root, "carol", "inbox", r.Filename)); got != "---\nfrom: alice\nsubject: own\nin-reply-to: "+c+"\n---\nok\n" {
		t.Errorf("reply to carol %q", got)
	}
	if txt, _ := p.fails("st_msg_reply", map[string]any{"thread": "bad", "body": ""}); txt != "INVALID_FILENAME: invalid filename: bad" {
		t.Errorf("reply bad thread: %q", txt)
	}
	if txt, _ := p.fails("st_msg_reply", map[string]any{"thread": a, "body": ""}); txt != "EMPTY_BODY: message body is empty (read from stdin)" {
		t.Errorf("reply empty: %q", txt)
	}
	if txt, _ := p.fails("st_msg_reply", map[string]any{"thread": b, "body": "x"}); txt != "INVALID_IDENTITY: invalid agent name: " {
		t.Errorf("reply to untyped: %q", txt)
	}
	if txt, _ := p.fails("st_msg_reply", map[string]any{"thread": "1714826789099-zzzzzz.md", "body": "x"}); !strings.HasPrefix(txt, "MESSAGE_NOT_FOUND: ") {
		t.Errorf("reply missing: %q", txt)
	}

	// archive
	sum, out = p.ok("st_msg_archive", map[string]any{"filename": a})
	if out != `{"filename":"`+a+`","identity":"alice","outcome":"moved"}` || sum != "archived: alice/"+a {
		t.Errorf("archive: %q %s", sum, out)
	}
	sum, out = p.ok("st_msg_archive", map[string]any{"filename": a})
	if out != `{"filename":"`+a+`","identity":"alice","outcome":"idempotent"}` || sum != "archived (idempotent): alice/"+a {
		t.Errorf("archive again: %q %s", sum, out)
	}
	mcpWriteFile(t, filepath.Join(root, "alice", "archive", b), "different\n")
	txt, meta = p.fails("st_msg_archive", map[string]any{"filename": b})
	if !strings.HasPrefix(txt, "ARCHIVE_CONFLICT: refuse to archive: archive/"+b) || !strings.Contains(meta, `"details":{"identity":"alice","filename":"`+b+`"}`) {
		t.Errorf("archive conflict: %q %s", txt, meta)
	}
	if _, err := os.Stat(filepath.Join(root, "alice", "inbox", b)); err != nil {
		t.Errorf("conflict moved the inbox copy")
	}
	if txt, _ := p.fails("st_msg_archive", map[string]any{"filename": a, "identity": "carol"}); !strings.HasPrefix(txt, "IDENTITY_NOT_HOSTED: ") {
		t.Errorf("archive carol (inbox only, strict): %q", txt)
	}
	if sum, _ := p.ok("st_msg_archive", map[string]any{"filename": "notes.md"}); sum != "archived: alice/notes.md" {
		t.Errorf("archive outside: %q", sum)
	}
}
