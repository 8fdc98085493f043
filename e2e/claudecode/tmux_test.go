package claudecode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tui is an interactive claude in a detached tmux session on a private
// socket: channels live in the interactive UI only, which needs a
// terminal.
type tui struct {
	p         *project
	sock      string
	debugFile string
	pidFile   string // claude's pid, written by the script before it execs claude
}

// tmuxBinary returns tmux, skipping t with one line when it is missing.
func tmuxBinary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not on PATH: the interactive Claude Code tests need it")
	}
	return bin
}

// startTUI runs claude with args in a 200x50 terminal. The session is
// killed when the test ends.
func (p *project) startTUI(args ...string) *tui {
	p.t.Helper()
	tmux := tmuxBinary(p.t)
	dir := p.t.TempDir()
	u := &tui{p: p, sock: filepath.Join(dir, "tmux.sock"), debugFile: filepath.Join(dir, "debug.log"),
		pidFile: filepath.Join(dir, "claude.pid")}
	// tmux runs the command through a shell in the server's environment;
	// a script pins the whole environment instead, as env() has it.
	env := append(p.env(), tuiEnv...)
	argv := append([]string{p.claudeBin, "--debug-file", u.debugFile}, args...)
	script := "#!/bin/sh\ncd " + shellQuote(p.dir) + " || exit 1\necho $$ > " + shellQuote(u.pidFile) + "\nexec env -i"
	for _, kv := range env {
		if !strings.HasPrefix(kv, "TERM=dumb") {
			script += " " + shellQuote(kv)
		}
	}
	for _, a := range argv {
		script += " " + shellQuote(a)
	}
	scriptFile := filepath.Join(dir, "claude.sh")
	if err := os.WriteFile(scriptFile, []byte(script+"\n"), 0o755); err != nil {
		p.t.Fatal(err)
	}
	cmd := exec.Command(tmux, "-S", u.sock, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50", scriptFile)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "TERM=xterm-256color", "HOME=" + p.home, "TMUX_TMPDIR=" + dir}
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// Keep the pane after claude exits, to show why it did.
	u.tmux("set-option", "-g", "remain-on-exit", "on")
	p.t.Cleanup(u.stop)
	return u
}

// stop ends the session and waits (bounded) for claude to exit, so that
// it is not still writing into the test's folders as they are removed.
func (u *tui) stop() {
	u.tmux("kill-server")
	data, err := os.ReadFile(u.pidFile)
	if err != nil {
		return
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
}

// tuiEnv is added to env() for an interactive run.
var tuiEnv = []string{"TERM=xterm-256color", "CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF=1",
	// The interactive client installs the official plugin marketplace
	// (downloads.claude.ai, then github.com) unless told not to.
	"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1"}

func (u *tui) tmux(args ...string) string {
	out, _ := exec.Command("tmux", append([]string{"-S", u.sock}, args...)...).CombinedOutput()
	return string(out)
}

// screen is the visible text of the terminal.
func (u *tui) screen() string { return u.tmux("capture-pane", "-p", "-J") }

// keys types keys (tmux key names, e.g. "Enter").
func (u *tui) keys(keys ...string) { u.tmux(append([]string{"send-keys", "-t", "0"}, keys...)...) }

func (u *tui) debug() string {
	data, _ := os.ReadFile(u.debugFile)
	return string(data)
}

// waitFor polls until cond holds or limit passes; it then fails the
// test with what, the screen and the debug log's tail.
func (u *tui) waitFor(what string, limit time.Duration, cond func() bool) {
	u.p.t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			u.p.t.Fatalf("waited %v for %s\nscreen:\n%s\ndebug log ends:\n%s", limit, what, u.screen(), tail(u.debug(), 4000))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// seedConfig writes the client's global config as a person who has
// finished onboarding, approved the API key and trusted the project
// would have it, so that no first-run dialog stands in the way.
//
// It also turns channels on. Claude Code 2.1.328 gates them behind the
// server-side feature flag tengu_harbor ("Channel notifications
// skipped: channels feature is not currently available" while it is
// off), which it fetches from its feature service and caches in this
// file as cachedGrowthBookFeatures. The tests never reach that service;
// they seed the cache, and CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF
// (see tuiEnv) lets the client read it with telemetry off.
func (p *project) seedConfig() {
	p.t.Helper()
	cfg := map[string]any{
		"cachedGrowthBookFeatures": map[string]any{"tengu_harbor": true},
		"hasCompletedOnboarding":   true,
		"lastOnboardingVersion":    ClaudeVersion,
		"theme":                    "dark",
		"customApiKeyResponses":    map[string]any{"approved": []string{"test"}, "rejected": []string{}},
		"projects": map[string]any{p.dir: map[string]any{
			"hasTrustDialogAccepted":        true,
			"hasCompletedProjectOnboarding": true,
			"enabledMcpjsonServers":         []string{"st"},
		}},
	}
	data, _ := json.MarshalIndent(cfg, "", "  ")
	dir := filepath.Join(p.home, ".claude")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude.json"), data, 0o600); err != nil {
		p.t.Fatal(err)
	}
}
