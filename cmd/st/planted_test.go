package main

// The planted-file matrix: at every path a reader or a hook
// opens, a store can hold something hostile instead of a file: a symlink
// to a file or a folder outside the root, a FIFO, a folder, a symlink to
// /dev/zero. Every verb, hook, MCP tool and dashboard page runs against
// such a store: nothing outside the root may be read (a canary secret
// lives there and must appear in no output and no store file) or written
// (the outside files stay as they were), and nothing may hang.

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smalltalk-go/st/dashboard"
	"github.com/smalltalk-go/st/internal/layout"
)

// plantTimeout bounds one command: a reader blocked on a FIFO or reading
// /dev/zero runs into it.
const plantTimeout = 20 * time.Second

// Names used in the planted store.
const (
	plantMsg  = "1700000000000-plant1.md" // planted in inbox/, archive/, decisions/, resources/
	realMsg   = "1700000000001-real01.md" // a real message beside it
	plantSess = "8ef91779-2425-4453-8525-1f6061eee1de"
)

// plantKinds are what stands at a planted path.
var plantKinds = []struct {
	name  string
	plant func(p string, out outsideFiles) error
}{
	{"symfile", func(p string, out outsideFiles) error { return os.Symlink(out.file, p) }},
	{"symdir", func(p string, out outsideFiles) error { return os.Symlink(out.dir, p) }},
	{"fifo", func(p string, _ outsideFiles) error { return syscall.Mkfifo(p, 0o666) }},
	{"dir", func(p string, _ outsideFiles) error { return os.Mkdir(p, 0o777) }},
	{"zero", func(p string, _ outsideFiles) error { return os.Symlink("/dev/zero", p) }},
}

// plantLayouts are the sets of paths (under the agent folder) planted
// together in one agent: files, whole folders, the decisions folder, the
// agent folder itself.
var plantLayouts = map[string][]string{
	"f": {
		"status", "name", "context/now.md", "context/decisions.md", "context/decisions/" + plantMsg,
		"inbox/" + plantMsg, "archive/" + plantMsg, "resources/" + plantMsg,
		"events/" + plantSess + ".jsonl", "events/." + plantSess + ".state.json", "events/." + plantSess + ".retry.json",
		"context/.flush-errors.log", "context/.stop-failure-last", "reservations/plant1.json",
		"acks/" + plantMsg,
	},
	"d": {"inbox", "archive", "context", "events", "resources", "spool", "reservations", "acks"},
	"c": {"context/decisions"},
	"a": {""},
}

// outsideFiles is what lives outside the root, each holding the canary.
type outsideFiles struct {
	base, file, dir, canary string
}

func makeOutside(t *testing.T, base string) outsideFiles {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	canary := "CANARY" + hex.EncodeToString(b[:])
	out := outsideFiles{base: base, file: filepath.Join(base, "secret.md"), dir: filepath.Join(base, "dir"), canary: canary}
	msg := "---\nfrom: " + canary + "\nsubject: " + canary + "\n---\n" + canary + "\n"
	files := map[string]string{
		out.file: msg,
		filepath.Join(out.dir, "1700000000000-cnryaa.md"):              msg,
		filepath.Join(out.dir, "now.md"):                               msg,
		filepath.Join(out.dir, "status"):                               canary,
		filepath.Join(out.dir, "inbox", "1700000000000-cnryab.md"):     msg,
		filepath.Join(out.dir, "context", "now.md"):                    msg,
		filepath.Join(out.dir, "context", "decisions", plantMsg):       msg,
		filepath.Join(out.dir, plantSess+".jsonl"):                     `{"event":"` + canary + `"}` + "\n",
		filepath.Join(out.dir, "events", plantSess+".jsonl"):           `{"event":"` + canary + `"}` + "\n",
		filepath.Join(out.dir, "config.yaml"):                          "operator: " + canary + "\n",
		filepath.Join(out.dir, "resources", "1700000000000-cnryac.md"): "---\nurl: https://" + canary + "\n---\n",
	}
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// snapshot describes every entry under dir (type, size, mtime, content
// hash), without following symlinks or opening anything but regular files.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		desc := fmt.Sprintf("%v %d %d", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			desc += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		m[p] = desc
		return nil
	})
	return m
}

// grepStore fails t when a regular file in the root holds the canary.
func grepStore(t *testing.T, root, canary string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if data, _ := os.ReadFile(p); bytes.Contains(data, []byte(canary)) {
				t.Errorf("%s holds the canary from outside the root", p)
			}
		}
		return nil
	})
}

// plantedStore builds a store with one agent per kind and layout (named
// <kind>-<layout>), each with a real message in its inbox, and a config
// folder per kind with config.yaml planted.
func plantedStore(t *testing.T, dir string, out outsideFiles) (root string, agents []string) {
	t.Helper()
	root = filepath.Join(dir, "store")
	for _, k := range plantKinds {
		cfg := filepath.Join(dir, "config-"+k.name)
		os.MkdirAll(cfg, 0o777)
		if err := k.plant(filepath.Join(cfg, "config.yaml"), out); err != nil {
			t.Fatal(err)
		}
		for layoutName, paths := range plantLayouts {
			id := k.name + "-" + layoutName
			agents = append(agents, id)
			base := filepath.Join(root, id)
			for _, d := range []string{"inbox", "archive", "context/decisions", "resources", "events", "spool", "reservations", "acks"} {
				os.MkdirAll(filepath.Join(base, d), 0o777)
			}
			real := "---\nfrom: alice\nsubject: real\n---\nhello\n"
			os.WriteFile(filepath.Join(base, "inbox", realMsg), []byte(real), 0o666)
			for _, rel := range paths {
				p := filepath.Join(base, rel)
				if err := os.RemoveAll(p); err != nil {
					t.Fatal(err)
				}
				if err := k.plant(p, out); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	os.MkdirAll(filepath.Join(root, "alice", "inbox"), 0o777)
	return root, agents
}

// plantedCommands are the verbs run as each planted agent ({a} is the
// agent, {m} the planted name, {r} the real message). Readers come
// first, writers (which replace planted files) last.
var plantedReaders = [][]string{
	{"status"}, {"status", "{a}"}, {"agents"}, {"agents", "--json", "--enrich"}, {"members", "--json"},
	{"overview"}, {"overview", "--json"},
	{"message", "ls"}, {"message", "ls", "--json"}, {"message", "ls", "--archive", "--json"},
	{"message", "ls", "--count"}, {"message", "ls", "--orphans"}, {"message", "ls", "--from", "alice"},
	{"message", "read", "{m}"}, {"message", "read", "{m}", "--json"}, {"message", "read", "{m}", "--archive"},
	{"message", "read", "{r}"}, {"message", "read", "{r}", "--raw"},
	{"message", "thread", "{r}"}, {"message", "thread", "{m}", "--tree"},
	{"context", "read"}, {"context", "read", "--decisions"}, {"context", "read", "--full"},
	{"resource", "ls"}, {"resource", "ls", "--json"}, {"resource", "read", "{m}"}, {"resource", "read", "{m}", "--json"},
	{"events"}, {"events", "--json"}, {"events", "--session", plantSess},
	{"watch", "--once"}, {"watch", "--once", "--with-subject"}, {"watch", "--all", "--once"},
	{"hooks", "path"},
	{"message", "search", "hello", "--all"}, {"message", "search", "CANARY", "--archive", "--json"},
	{"reservations"}, {"reservations", "--json"},
	{"message", "ls", "--unacked"}, {"message", "ls", "{a}", "--unacked", "--json"},
}

var plantedWriters = [][]string{
	{"message", "send", "{a}", "-m", "hi", "--subject", "s"}, {"message", "reply", "{r}", "-m", "re"},
	{"message", "ack", "{r}"}, {"message", "ack", "{m}"},
	{"message", "archive", "{m}"}, {"message", "archive", "{r}"},
	{"message", "archive", "trim", "--keep-last", "0", "--dry-run"},
	{"context", "append", "--decision", "d", "--why", "w"},
	{"resource", "add", "https://example.com/x", "--title", "t"}, {"resource", "rm", "{m}"},
	{"events", "prune", "--older-than", "1s"},
	{"status", "--set", "busy"},
	{"context", "write"},
	{"sync", "sweep"}, {"gc", "serve", "--once"},
}

// plantedHooks are the hook events with the payload each reads.
var plantedHooks = []struct{ event, payload string }{
	{"session-start", "claudecode/SessionStart"}, {"session-start --inbox", "claudecode/SessionStart"},
	{"session-start --json --inbox", "claudecode/SessionStart"},
	{"codex-session-start", "codex/SessionStart"}, {"codex-stop", "codex/Stop"},
	{"codex-pre-tool-use", "codex/PreToolUse-apply_patch"},
	{"user-prompt-submit", "claudecode/UserPromptSubmit"}, {"subagent-start", "claudecode/SubagentStart"},
	{"subagent-stop", "claudecode/SubagentStop"},
	{"pre-tool-use", "claudecode/PreToolUse"}, {"post-tool-use", "claudecode/PostToolUse"},
	{"post-tool-use-failure", "claudecode/PostToolUseFailure"}, {"notification", "claudecode/Notification"},
	{"stop", "claudecode/Stop"}, {"pre-compact", "claudecode/PreCompact"},
	{"stop-failure", "claudecode/StopFailure"}, {"session-end", "claudecode/SessionEnd"},
}

func TestPlantedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("process-level tests skipped in -short mode")
	}
	st, err := exec.LookPath("st")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := makeOutside(t, filepath.Join(dir, "outside"))
	root, agents := plantedStore(t, dir, out)
	before := snapshot(t, out.base)
	check := func(t *testing.T, what, output string) {
		t.Helper()
		if strings.Contains(output, out.canary) || strings.Contains(output, "cnry") {
			t.Errorf("%s printed what lies outside the root: %q", what, output)
		}
	}

	// The dashboard, in process, over the whole planted store.
	srv, err := dashboard.New(dashboard.Config{Root: root, Env: layout.NewEnv(func(string) (string, bool) { return "", false }, io.Discard), Poll: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	get := func(t *testing.T, path string) {
		t.Helper()
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { defer close(done); srv.Handler().ServeHTTP(w, httptest.NewRequest("GET", path, nil)) }()
		select {
		case <-done:
		case <-time.After(plantTimeout):
			t.Fatalf("dashboard GET %s hung", path)
		}
		check(t, "GET "+path, w.Body.String())
	}
	get(t, "/")

	for _, id := range agents {
		t.Run(id, func(t *testing.T) {
			kind := id[:strings.IndexByte(id, '-')]
			env := []string{
				"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"),
				"ST_ROOT=" + root, "ST_AGENT=" + id, "ST_CONFIG=" + filepath.Join(dir, "config-"+kind),
				"XDG_STATE_HOME=" + filepath.Join(dir, "state"), "GORACE=atexit_sleep_ms=0",
				"ST_STDIN_TIMEOUT_MS=2000",
			}
			run := func(args []string, stdin string) {
				t.Helper()
				for i, a := range args {
					args[i] = strings.NewReplacer("{a}", id, "{m}", plantMsg, "{r}", realMsg).Replace(a)
				}
				ctx, cancel := context.WithTimeout(context.Background(), plantTimeout)
				defer cancel()
				cmd := exec.CommandContext(ctx, st, args...)
				cmd.Env = env
				cmd.Stdin = strings.NewReader(stdin)
				var o bytes.Buffer
				cmd.Stdout, cmd.Stderr = &o, &o
				err := cmd.Run()
				if ctx.Err() != nil {
					t.Fatalf("st %s hung", strings.Join(args, " "))
				}
				var exit *exec.ExitError
				if err != nil && !errors.As(err, &exit) {
					t.Fatalf("st %s: %v", strings.Join(args, " "), err)
				}
				check(t, "st "+strings.Join(args, " "), o.String())
			}
			for _, args := range plantedReaders {
				run(append([]string(nil), args...), "")
			}
			for _, p := range []string{"/agent/" + id, "/agent/" + id + "/message/" + plantMsg, "/agent/" + id + "/message/" + realMsg} {
				get(t, p)
			}
			plantedMCP(t, st, env, id, check, plantedMCPReaders)
			for _, h := range plantedHooks {
				payload, err := os.ReadFile(filepath.Join("..", "..", "e2e", filepath.Dir(h.payload), "testdata", "payloads", filepath.Base(h.payload)+".json"))
				if err != nil {
					t.Fatal(err)
				}
				run(append([]string{"hook"}, strings.Fields(h.event)...), string(payload))
			}
			plantedMCP(t, st, env, id, check, plantedMCPWriters)
			for _, args := range plantedWriters {
				run(append([]string(nil), args...), "new state\n")
			}
		})
	}
	get(t, "/")
	grepStore(t, root, out.canary)
	after := snapshot(t, out.base)
	for p, d := range before {
		if after[p] != d {
			t.Errorf("outside the root, %s changed: %s → %s", p, d, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("outside the root, %s was created", p)
		}
	}
}

// mcpCall is one MCP tool call.
type mcpCall struct {
	tool string
	args map[string]any
}

// The MCP tools, readers first (they run before the hooks and the
// writers replace what is planted).
var (
	plantedMCPReaders = []mcpCall{
		{"st_agents", map[string]any{"enrich": true}},
		{"st_msg_ls", map[string]any{}}, {"st_msg_ls", map[string]any{"archive": true}},
		{"st_msg_read", map[string]any{"filename": plantMsg}}, {"st_msg_read", map[string]any{"filename": plantMsg, "fromArchive": true}},
		{"st_msg_read", map[string]any{"filename": realMsg}},
		{"st_msg_thread", map[string]any{"filename": realMsg, "tree": true}},
		{"st_context_read", map[string]any{"file": "now"}}, {"st_context_read", map[string]any{"file": "decisions"}},
		{"st_context_read", map[string]any{"file": "full"}},
		{"st_resource_ls", map[string]any{}}, {"st_resource_read", map[string]any{"filename": plantMsg}},
	}
	plantedMCPWriters = []mcpCall{
		{"st_msg_send", map[string]any{"to": "{a}", "body": "hi"}}, {"st_msg_reply", map[string]any{"body": "re"}},
		{"st_msg_archive", map[string]any{"filename": plantMsg}},
		{"st_context_append", map[string]any{"decision": "d", "why": "w"}},
		{"st_context_write", map[string]any{"body": "state"}},
		{"st_resource_add", map[string]any{"url": "https://example.com/y"}},
		{"st_resource_remove", map[string]any{"filename": plantMsg}},
	}
)

// plantedMCP makes the calls to `st mcp --channel` as agent id.
func plantedMCP(t *testing.T, st string, env []string, id string, check func(*testing.T, string, string), calls []mcpCall) {
	t.Helper()
	cmd := exec.Command(st, "mcp", "--channel")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "st-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), plantTimeout)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		// Refusing to serve an agent whose inbox cannot be made is fine,
		// as long as it says so in one line and leaks nothing.
		if ctx.Err() != nil || !strings.HasPrefix(stderr.String(), "st: ") || strings.Count(stderr.String(), "\n") != 1 {
			t.Fatalf("st mcp: %v (%q)", err, stderr.String())
		}
		check(t, "st mcp's stderr", stderr.String())
		return
	}
	defer cs.Close()
	for _, c := range calls {
		if c.args["to"] == "{a}" {
			c.args = map[string]any{"to": id, "body": c.args["body"]}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if ctx.Err() != nil {
			t.Fatalf("MCP %s hung", c.tool)
		}
		if err != nil {
			t.Fatalf("MCP %s: %v (%s)", c.tool, err, stderr.String())
		}
		data, _ := json.Marshal(res)
		check(t, "MCP "+c.tool, string(data))
	}
	cs.Close()
	check(t, "st mcp's stderr", stderr.String())
}
