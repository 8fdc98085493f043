package claudecode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// runTimeout bounds one claude run; a hung client fails the test with
// what it printed so far.
const runTimeout = 90 * time.Second

// project is a scratch project wired for st: its own HOME, Claude
// config, ST_ROOT and agent, `st init` and `st hooks install --all` run
// in it, and a mock API that claude talks to.
type project struct {
	t         testing.TB
	dir       string // the project folder, claude's cwd
	home      string
	root      string // ST_ROOT
	agent     string // ST_AGENT
	claudeBin string
	stDir     string
	mock      *Mock
	trap      *trapProxy
	extra     []string // extra environment for claude
	rec       string   // where the recorder hooks save payloads
	tmp       string   // TMPDIR
}

func newProject(t testing.TB, script Script) *project {
	t.Helper()
	return newProjectWith(t, script, func(p *project) {
		p.st("init")
		p.st("hooks", "install", "--all")
	})
}

// newProjectWith is newProject with setup wiring st into the project
// instead of `st init` and `st hooks install --all`.
func newProjectWith(t testing.TB, script Script, setup func(*project)) *project {
	t.Helper()
	claude := claudeBinary(t)
	stDir := stBinDir(t)
	base := t.TempDir()
	p := &project{t: t, dir: filepath.Join(base, "proj"), home: filepath.Join(base, "home"),
		root: filepath.Join(base, "st-root"), agent: "alice", claudeBin: claude, stDir: stDir}
	p.tmp = filepath.Join(base, "tmp")
	for _, d := range []string{p.dir, p.home, p.tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mock, err := NewMock(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mock.Close)
	p.mock = mock
	p.trap = newTrapProxy(t)
	p.rec = filepath.Join(base, "payloads")
	p.writeRecorder()
	setup(p)
	p.st("status", "--set", "available")
	return p
}

// env is the whole environment of a claude run: nothing is inherited
// but PATH's system folders, so no real credential or config leaks in.
func (p *project) env() []string {
	path := p.stDir + ":" + filepath.Dir(p.claudeBin) + ":/usr/local/bin:/usr/bin:/bin"
	env := []string{
		"PATH=" + path,
		"HOME=" + p.home,
		"CLAUDE_CONFIG_DIR=" + filepath.Join(p.home, ".claude"),
		"XDG_CONFIG_HOME=" + filepath.Join(p.home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(p.home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(p.home, ".cache"),
		"ST_CONFIG=" + filepath.Join(p.home, ".config", "smalltalk"),
		"TMPDIR=" + p.tmp,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"ST_ROOT=" + p.root,
		"ST_AGENT=" + p.agent,
		"ANTHROPIC_BASE_URL=" + p.mock.URL,
		"ANTHROPIC_API_KEY=test",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_BUG_COMMAND=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY=1",
		"CLAUDE_CODE_DISABLE_TERMINAL_TITLE=1",
		// Anything that is not the mock goes to a proxy that refuses it
		// and records the host, so nothing leaves loopback.
		"HTTPS_PROXY=" + p.trap.url, "HTTP_PROXY=" + p.trap.url,
		"https_proxy=" + p.trap.url, "http_proxy=" + p.trap.url,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	return append(env, p.extra...)
}

// st runs the real st in the project with the project's environment.
func (p *project) st(args ...string) string {
	p.t.Helper()
	return p.stAs(p.agent, args...)
}

// stAs runs st as another agent (creating its folders first, as a peer
// that has run st before would have them).
func (p *project) stAs(agent string, args ...string) string {
	p.t.Helper()
	for _, d := range []string{"inbox", "archive"} {
		os.MkdirAll(filepath.Join(p.root, agent, d), 0o755)
	}
	cmd := p.stCmd(agent, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		p.t.Fatalf("st %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// stCmd is st as agent in the project, ready to run.
func (p *project) stCmd(agent string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(p.stDir, "st"), args...)
	cmd.Dir = p.dir
	cmd.Env = append(p.env(), "ST_AGENT="+agent)
	return cmd
}

// run is one finished claude -p run.
type run struct {
	events  []map[string]any // stream-json lines
	stdout  string
	stderr  string
	debug   string // the --debug-file log
	session string // session_id of the init event
	result  map[string]any
}

// claude runs `claude -p prompt --output-format stream-json --verbose`
// with a debug log, plus args, and returns what it printed.
func (p *project) claude(prompt string, args ...string) *run {
	p.t.Helper()
	debugFile := filepath.Join(p.t.TempDir(), "debug.log")
	argv := append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--debug-file", debugFile, "--include-hook-events", "--allowedTools", "Bash,Read,Task,Agent,mcp__st"}, args...)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.claudeBin, argv...)
	cmd.Dir = p.dir
	cmd.Env = p.env()
	cmd.Stdin = strings.NewReader("")
	// A child left holding the output pipes (a hook, st mcp) must not
	// keep Run waiting after the kill.
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	dbg, _ := os.ReadFile(debugFile)
	r := parseRun(out.String(), errb.String(), string(dbg))
	p.keep(r)
	if ctx.Err() != nil {
		p.t.Fatalf("claude %s: no exit within %v\nstdout:\n%s\nstderr:\n%s\ndebug tail:\n%s",
			prompt, runTimeout, r.stdout, r.stderr, tail(r.debug, 4000))
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		p.t.Fatalf("claude: %v", err)
	}
	return r
}

// parseRun reads the stream-json lines of a run.
func parseRun(stdout, stderr, debug string) *run {
	r := &run{stdout: stdout, stderr: stderr, debug: debug}
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		r.events = append(r.events, ev)
		if ev["type"] == "system" && ev["subtype"] == "init" && r.session == "" {
			r.session, _ = ev["session_id"].(string)
		}
		if ev["type"] == "result" {
			r.result = ev
		}
	}
	return r
}

// keep copies a run's output and debug log under $ST_E2E_KEEP, for a
// person reading what the client did.
func (p *project) keep(r *run) {
	dir := os.Getenv("ST_E2E_KEEP")
	if dir == "" {
		return
	}
	name := strings.NewReplacer("/", "_").Replace(p.t.Name())
	os.MkdirAll(dir, 0o755)
	for i := 1; ; i++ {
		base := filepath.Join(dir, name+"-"+strconv.Itoa(i))
		if _, err := os.Stat(base + ".debug.log"); err == nil {
			continue
		}
		os.WriteFile(base+".debug.log", []byte(r.debug), 0o644)
		os.WriteFile(base+".stdout.jsonl", []byte(r.stdout), 0o644)
		return
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// trapProxy is an HTTP proxy on loopback that refuses every request and
// records where it was headed: claude's only way out of loopback.
type trapProxy struct {
	url   string
	mu    sync.Mutex
	hosts []string
}

func newTrapProxy(t testing.TB) *trapProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tp := &trapProxy{url: "http://" + ln.Addr().String()}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tp.mu.Lock()
		tp.hosts = append(tp.hosts, r.Method+" "+r.Host)
		tp.mu.Unlock()
		http.Error(w, "e2e: no network", http.StatusForbidden)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return tp
}

// Hosts returns every refused destination.
func (tp *trapProxy) Hosts() []string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]string(nil), tp.hosts...)
}

// recorded are the events whose payloads the recorder saves.
var recorded = []string{"SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse",
	"PostToolUseFailure", "Notification", "SubagentStart", "SubagentStop", "Stop", "StopFailure", "PreCompact", "PostCompact"}

// writeRecorder puts a test-only hook for every event into the
// project's shared settings (.claude/settings.json; st's own hooks are
// in settings.local.json and both run): it saves the payload Claude
// Code sends, one file per firing, beside st's hook, not instead of it.
func (p *project) writeRecorder() {
	p.t.Helper()
	if err := os.MkdirAll(p.rec, 0o755); err != nil {
		p.t.Fatal(err)
	}
	hooks := map[string]any{}
	for _, ev := range recorded {
		cmd := "cat > " + filepath.Join(p.rec, ev) + ".$$.json"
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd}}}}
	}
	data, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err := os.MkdirAll(filepath.Join(p.dir, ".claude"), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, ".claude", "settings.json"), data, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// payloads returns the recorded payloads of one event, in no order.
func (p *project) payloads(event string) []map[string]any {
	files, _ := filepath.Glob(filepath.Join(p.rec, event+".*.json"))
	var out []map[string]any
	for _, f := range files {
		data, err := os.ReadFile(f)
		var m map[string]any
		if err != nil || json.Unmarshal(data, &m) != nil {
			p.t.Errorf("recorded payload %s unreadable: %v %q", f, err, data)
			continue
		}
		out = append(out, m)
	}
	return out
}
