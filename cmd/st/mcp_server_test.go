package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/mcp"
)

// §8 case 55: serverInfo, capabilities and instructions per mode.
func TestMCPInitialize(t *testing.T) {
	root := t.TempDir()
	for _, channel := range []bool{false, true} {
		var args []string
		if channel {
			args = []string{"--channel"}
		}
		p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "_ST_INVOKED_AS=smalltalk"), args...)
		init := p.cs.InitializeResult()
		if got := init.ServerInfo; got.Name != "st" || got.Version != "0.9.1" {
			t.Errorf("serverInfo = %+v, want st 0.9.1", got)
		}
		caps, err := json.Marshal(init.Capabilities)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"tools":{"listChanged":true}}`
		if channel {
			want = `{"experimental":{"claude/channel":{}},"tools":{"listChanged":true}}`
		}
		if string(caps) != want {
			t.Errorf("channel=%v: capabilities %s, want %s", channel, caps, want)
		}
		if !channel && init.Instructions != "" {
			t.Errorf("plain mode sent instructions")
		}
		if channel {
			if init.Instructions != mcp.Instructions {
				t.Errorf("instructions differ")
			}
			if n := len([]rune(init.Instructions)); n != 1887 {
				t.Errorf("instructions are %d characters, want 1887", n)
			}
			for _, s := range []string{"available", "st status", "st_msg_ls", "st_msg_read", "st_msg_archive", "st_msg_reply", "st_agents", `<channel source="st"`} {
				if !strings.Contains(init.Instructions, s) {
					t.Errorf("instructions lack %q", s)
				}
			}
		}
	}
}

// §8 case 56, ★11: on a fresh root the tools work at once.
func TestMCPFreshRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	sum, out := p.ok("st_msg_send", map[string]any{"to": "bob", "body": "hi", "subject": "s", "tags": []string{" a ", "", "b,c"}, "priority": "high"})
	var sent struct{ Filename, Identity string }
	json.Unmarshal([]byte(out), &sent)
	if want := `{"filename":"` + sent.Filename + `","identity":"bob"}`; out != want {
		t.Errorf("send structuredContent %s, want %s", out, want)
	}
	if want := "sent: bob/" + sent.Filename + "\nnote: bob had no folder before this message, so it is a new agent"; sum != want {
		t.Errorf("send summary %q, want %q", sum, want)
	}
	// A typo gets the CLI's note with the closest agent; an
	// existing recipient none.
	if sum, _ := p.ok("st_msg_send", map[string]any{"to": "bbo", "body": "hi"}); !strings.HasSuffix(sum, "\nnote: bbo had no folder before this message, so it is a new agent; did you mean bob?") {
		t.Errorf("send to bbo: summary %q, want the note naming bob", sum)
	}
	if sum, _ := p.ok("st_msg_send", map[string]any{"to": "bob", "body": "again"}); strings.Contains(sum, "note") {
		t.Errorf("send to existing bob: summary %q has a note", sum)
	}
	got := mcpReadFile(t, filepath.Join(root, "bob", "inbox", sent.Filename))
	if want := "---\nfrom: alice\nsubject: s\ntags: [a, \"b,c\"]\npriority: high\n---\nhi\n"; got != want {
		t.Errorf("message file %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(root, "bob", "archive")); err == nil {
		t.Errorf("send created bob/archive")
	}
	sum, out = p.ok("st_context_write", map[string]any{"body": "state"})
	path := filepath.Join(root, "alice", "context", "now.md")
	if want := `{"identity":"alice","path":` + mcpJSONString(path) + `,"bytes":6}`; out != want {
		t.Errorf("write structuredContent %s, want %s", out, want)
	}
	if want := "wrote 6 bytes to " + path; sum != want {
		t.Errorf("write summary %q, want %q", sum, want)
	}
	if sum, out := p.ok("st_msg_ls", nil); out != `{"matches":[],"archive":false,"identity":"alice"}` || sum != "0 messages in inbox" {
		t.Errorf("ls on a fresh root: %q %s", sum, out)
	}
	for _, d := range []string{"inbox", "archive"} {
		if fi, err := os.Stat(filepath.Join(root, "alice", d)); err != nil || !fi.IsDir() {
			t.Errorf("alice/%s not created at start", d)
		}
	}
}

func mcpJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// §8 case 57, and ours beyond it: no agent in the environment → a throwaway
// anon-<rand6> whose tools work, announced nowhere (Claude Code logs an
// MCP server's stderr as an error), and gone when the session ends
// without using it, so sessions without an agent pile up nothing.
func TestMCPAnonymous(t *testing.T) {
	root := t.TempDir()
	p := startMCP(t, root, mcpEnv(root))
	id := anonIdentity(t, p)
	for _, d := range []string{"inbox", "archive"} {
		if fi, err := os.Stat(filepath.Join(root, id, d)); err != nil || !fi.IsDir() {
			t.Errorf("%s/%s missing during the session", id, d)
		}
	}
	if err := p.cs.Close(); err != nil {
		t.Log(err)
	}
	p.waitExit(t, 2*time.Second)
	if got := p.stderr.String(); got != "" {
		t.Errorf("stderr %q, want nothing", got)
	}
	if names, _ := os.ReadDir(root); len(names) != 0 {
		t.Errorf("the root holds %v after an unused anonymous session, want nothing", names)
	}
}

// anonIdentity is the throwaway agent an anonymous server runs as.
func anonIdentity(t *testing.T, p *mcpProc) string {
	t.Helper()
	_, out := p.ok("st_msg_ls", nil)
	m := regexp.MustCompile(`"identity":"(anon-[0-9a-hjkmnp-tv-z]{6})"`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("st_msg_ls of an anonymous server: %s", out)
	}
	return m[1]
}

// A throwaway agent that sent a message (a reply may come back) or got
// one stays, with its status offline, as any agent's.
func TestMCPAnonymousKeptWhenUsed(t *testing.T) {
	for _, use := range []string{"sent", "received"} {
		t.Run(use, func(t *testing.T) {
			root := t.TempDir()
			p := startMCP(t, root, mcpEnv(root))
			id := anonIdentity(t, p)
			var msg string
			if use == "sent" {
				p.ok("st_msg_send", map[string]any{"to": "bob", "body": "hi"})
			} else {
				msg = filepath.Join(root, id, "inbox", "1795966371663-abcdef.md")
				mcpWriteFile(t, msg, "---\nfrom: bob\n---\nhi\n")
			}
			p.cs.Close()
			p.waitExit(t, 2*time.Second)
			if got := mcpReadFile(t, filepath.Join(root, id, "status")); got != "offline\n" {
				t.Errorf("status %q, want offline", got)
			}
			if msg != "" {
				if _, err := os.Stat(msg); err != nil {
					t.Errorf("the message it got: %v", err)
				}
			}
		})
	}
}

// §8 case 58 and the other context tools.
func TestMCPContext(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "bob")
	mcpWriteFile(t, filepath.Join(root, "bob", "context", "now.md"), "bob's state\n")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "ST_TEST_NOW=1795966371663"))
	for _, file := range []string{"now", "decisions", "full"} {
		sum, out := p.ok("st_context_read", map[string]any{"file": file})
		if want := `{"identity":"alice","file":"` + file + `","text":"","absent":true}`; out != want {
			t.Errorf("cold read %s: %s, want %s", file, out, want)
		}
		if want := "context/" + file + " absent for alice"; sum != want {
			t.Errorf("cold read summary %q, want %q", sum, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "alice", "context")); err == nil {
		t.Errorf("read created context/")
	}
	sum, out := p.ok("st_context_read", map[string]any{"identity": "bob"})
	if want := `{"identity":"bob","file":"now","text":"bob's state\n","absent":false}`; out != want {
		t.Errorf("read bob: %s, want %s", out, want)
	}
	if want := "context/now @ bob (12 bytes)"; sum != want {
		t.Errorf("read bob summary %q", sum)
	}
	// ★8 real bytes.
	if sum, _ := p.ok("st_context_write", map[string]any{"body": "é"}); !strings.HasPrefix(sum, "wrote 3 bytes to ") {
		t.Errorf("write é: %q", sum)
	}
	sum, out = p.ok("st_context_append", map[string]any{"decision": "chose X.", "why": " it is simple "})
	var e struct{ Identity, Path, Filename, Line string }
	json.Unmarshal([]byte(out), &e)
	if e.Line != "- 2026-11-29T15:32:51.663Z chose X. why: it is simple." || e.Identity != "alice" ||
		!strings.HasPrefix(e.Filename, "1795966371663-") || sum != "appended: "+e.Filename ||
		e.Path != filepath.Join(root, "alice", "context", "decisions", e.Filename) {
		t.Errorf("append: %s / %q", out, sum)
	}
	if !strings.HasPrefix(out, `{"identity":"alice","path":`) {
		t.Errorf("append key order: %s", out)
	}
	if got := mcpReadFile(t, e.Path); got != e.Line+"\n" {
		t.Errorf("entry file %q", got)
	}
	_, out = p.ok("st_context_append", map[string]any{"decision": "d", "why": "w", "timestamp": "2026-07-02T22:00:00Z"})
	json.Unmarshal([]byte(out), &e)
	if e.Line != "- 2026-07-02T22:00:00Z d. why: w." || !strings.HasPrefix(e.Filename, "1783029600000-") {
		t.Errorf("append with timestamp: %s", out)
	}
	sum, out = p.ok("st_context_read", map[string]any{"file": "full"})
	if want := `{"identity":"alice","file":"full","text":"# now.md\né\n\n\n# decisions/\n- 2026-07-02T22:00:00Z d. why: w.\n- 2026-11-29T15:32:51.663Z chose X. why: it is simple.\n","absent":false}`; out != want {
		t.Errorf("full: %s\nwant %s", out, want)
	}
	_ = sum
	txt, meta := p.fails("st_context_append", map[string]any{"decision": " ", "why": "w"})
	if txt != "INTERNAL_ERROR: --decision is required and cannot be empty" || meta != `{"code":"INTERNAL_ERROR","message":"--decision is required and cannot be empty"}` {
		t.Errorf("empty decision: %q %s", txt, meta)
	}
	txt, _ = p.fails("st_context_append", map[string]any{"decision": "a\nb", "why": "w"})
	if !strings.HasPrefix(txt, "INTERNAL_ERROR: context append: --decision and --why must be single lines.") {
		t.Errorf("multi-line decision: %q", txt)
	}
	txt, meta = p.fails("st_context_read", map[string]any{"identity": "ghost"})
	if txt != "IDENTITY_NOT_HOSTED: agent folder missing for ghost — create it: mkdir -p $ST_ROOT/ghost/{inbox,archive}" ||
		meta != `{"code":"IDENTITY_NOT_HOSTED","message":"agent folder missing for ghost — create it: mkdir -p $ST_ROOT/ghost/{inbox,archive}","details":{"identity":"ghost"}}` {
		t.Errorf("ghost: %q %s", txt, meta)
	}
	if _, err := os.Stat(filepath.Join(root, "ghost")); err == nil {
		t.Errorf("ghost folder created")
	}
}

// §8 case 59 and traversal: every name argument is grammar-checked, so
// no path can leave the agent's folders.
func TestMCPNameErrors(t *testing.T) {
	root := t.TempDir()
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	txt, meta := p.fails("st_msg_send", map[string]any{"to": "BAD", "body": "x"})
	if txt != "INVALID_IDENTITY: invalid agent name: BAD" || meta != `{"code":"INVALID_IDENTITY","message":"invalid agent name: BAD","details":{"value":"BAD"}}` {
		t.Errorf("BAD: %q %s", txt, meta)
	}
	bad := []string{"../bob", "..", ".", "/etc", "a/b", "bob/../alice", "", "inbox", "BOB", "a\x00b"}
	for _, name := range bad {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"st_msg_send", map[string]any{"to": name, "body": "x"}},
			{"st_msg_send", map[string]any{"to": "bob", "from": name, "body": "x"}},
			{"st_context_read", map[string]any{"identity": name}},
			{"st_context_write", map[string]any{"identity": name, "body": "x"}},
			{"st_context_append", map[string]any{"identity": name, "decision": "d", "why": "w"}},
		} {
			if name == "" && c.tool != "st_msg_send" || name == "" && c.args["from"] != nil {
				continue // an empty identity means the server's agent
			}
			txt, _ := p.fails(c.tool, c.args)
			if !strings.HasPrefix(txt, "INVALID_IDENTITY: invalid agent name: ") {
				t.Errorf("%s %v: %q", c.tool, c.args, txt)
			}
		}
	}
	for _, irt := range []string{"../x.md", "garbage", "1714826789012-operator-abcdef.md"} {
		txt, _ := p.fails("st_msg_send", map[string]any{"to": "bob", "body": "x", "inReplyTo": irt})
		if txt != "INVALID_FILENAME: invalid filename: "+irt {
			t.Errorf("inReplyTo %q: %q", irt, txt)
		}
	}
	txt, meta = p.fails("st_msg_send", map[string]any{"to": "bob", "from": "ghost", "body": "x"})
	if txt != "IDENTITY_NOT_HOSTED: agent folder missing for ghost — create it: mkdir -p $ST_ROOT/ghost/{inbox,archive}" || !strings.Contains(meta, `"details":{"identity":"ghost"}`) {
		t.Errorf("from ghost: %q %s", txt, meta)
	}
	txt, meta = p.fails("st_msg_send", map[string]any{"to": "bob", "body": ""})
	if txt != "EMPTY_BODY: message body is empty (read from stdin)" || meta != `{"code":"EMPTY_BODY","message":"message body is empty (read from stdin)"}` {
		t.Errorf("empty body: %q %s", txt, meta)
	}
	// Input-schema violations are tool errors too.
	for _, args := range []map[string]any{{"to": "bob"}, {"to": "bob", "body": "x", "priority": "urgent"}, {"to": 3, "body": "x"}} {
		if res := p.call("st_msg_send", args); !res.IsError {
			t.Errorf("%v accepted", args)
		}
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.Name() != "alice" {
			t.Errorf("unexpected root entry %q", e.Name())
		}
	}
}

// §8 case 61: every shutdown path leaves offline and ends the process.
// The bound is loose on purpose (a loaded CI box, a race-enabled child);
// BenchmarkMCPShutdown measures the real latency.
func TestMCPShutdown(t *testing.T) {
	for _, how := range []string{"stdin", "SIGTERM", "SIGINT"} {
		t.Run(how, func(t *testing.T) {
			root := t.TempDir()
			p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
			p.ok("st_context_read", nil)
			start := time.Now()
			switch how {
			case "stdin":
				go p.cs.Close()
			case "SIGTERM":
				p.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				p.cmd.Process.Signal(syscall.SIGINT)
			}
			p.waitExit(t, 5*time.Second)
			t.Logf("%s: exited after %s", how, time.Since(start))
			if got := mcpReadFile(t, filepath.Join(root, "alice", "status")); got != "offline\n" {
				t.Errorf("status %q, want offline", got)
			}
			mcpNoTemps(t, filepath.Join(root, "alice"))
		})
	}
}

// §8 case 61: a signal during start-up, before the client said anything.
func TestMCPShutdownDuringStartup(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		root := t.TempDir()
		stPath, _ := exec.LookPath("st")
		cmd := exec.Command(stPath, "mcp", "--channel")
		cmd.Env = mcpEnv(root, "ST_AGENT=alice")
		in, _ := cmd.StdinPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the agent's folders exist: the handler is installed.
		for i := 0; i < 2000; i++ {
			if _, err := os.Stat(filepath.Join(root, "alice", "archive")); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%v: %v", sig, err)
			}
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: still running", sig)
		}
		in.Close()
		if got := mcpReadFile(t, filepath.Join(root, "alice", "status")); got != "offline\n" {
			t.Errorf("%v: status %q", sig, got)
		}
	}
}

func mcpNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
}

// The status file is refreshed on the timer (first after one interval),
// never written at start.
func TestMCPStatusRefresh(t *testing.T) {
	root := t.TempDir()
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "ST_TEST_MCP_INTERVALS=300,100000,100000"))
	statusPath := filepath.Join(root, "alice", "status")
	if _, err := os.Stat(statusPath); err == nil {
		t.Errorf("status written at start")
	}
	waitFor(t, "the status refresh", func() bool {
		data, _ := os.ReadFile(statusPath)
		return string(data) == "available\n"
	})
	mcpWriteFile(t, statusPath, "  busy \n")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(statusPath, old, old)
	waitFor(t, "the status refresh", func() bool {
		data, _ := os.ReadFile(statusPath)
		fi, err := os.Stat(statusPath)
		return string(data) == "busy\n" && err == nil && fi.ModTime().After(old.Add(time.Minute))
	})
	p.ok("st_context_read", nil)
}

// The tidy check (plain mode too): one frame when drift appears, none
// while it persists, none while busy.
func TestMCPTidyCheck(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "alice")
	fn := filepath.Join(root, "alice", "inbox", "1714826789012-abcdef.md")
	mcpWriteFile(t, fn, "---\nfrom: bob\n---\nhi\n")
	old := time.Now().Add(-11*time.Minute - 10*time.Second)
	os.Chtimes(fn, old, old)
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "notes.md"), "outside files do not count\n")
	os.Chtimes(filepath.Join(root, "alice", "inbox", "notes.md"), old, old)
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice", "ST_TEST_MCP_INTERVALS=100000,100,100000", "ST_CHANNEL_DEBUG=1"))
	f, ok := p.frame(5 * time.Second)
	if !ok {
		t.Fatalf("no tidy frame; stderr %q", p.stderr.String())
	}
	if want := `{"content":"Tidy check (drift detected):\n- inbox: 1 unaddressed message (oldest 11m old)","meta":{"from":"st-system","kind":"tidy-check","identity":"alice","messageFilename":null,"threadFilename":null}}`; f.raw != want {
		t.Errorf("frame %s\nwant  %s", f.raw, want)
	}
	if f, ok := p.frame(500 * time.Millisecond); ok {
		t.Errorf("second frame while drift persists: %s", f.raw)
	}
}

// A client that goes away by closing the server's stdout (stdin still
// open): the next frame fails with EPIPE, and the server still writes
// offline and exits instead of dying of SIGPIPE.
func TestMCPShutdownStdoutClosed(t *testing.T) {
	root := t.TempDir()
	stPath, _ := exec.LookPath("st")
	cmd := exec.Command(stPath, "mcp", "--channel")
	cmd.Env = mcpEnv(root, "ST_AGENT=alice")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	out.Close()
	mcpWriteFile(t, filepath.Join(root, "alice", "inbox", "1714826789012-abcdef.md"), "---\nfrom: bob\n---\nhi\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(20 * time.Second): // the backstop is 15 s if the event is lost
		cmd.Process.Kill()
		t.Fatal("still running")
	}
	if got := mcpReadFile(t, filepath.Join(root, "alice", "status")); got != "offline\n" {
		t.Errorf("status %q", got)
	}
}
