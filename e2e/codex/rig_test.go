package codex

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rig is one scratch world for a Codex run: a home, a CODEX_HOME whose
// config.toml points Codex at the mock, a project, and an st root.
type rig struct {
	t         testing.TB
	dir       string
	home      string // HOME
	codexHome string // CODEX_HOME
	proj      string // the project Codex works in
	root      string // ST_ROOT
	api       *mockAPI
	env       []string

	hookWarnings []string // from the last hooks/list
}

// newRig builds the world and writes Codex's config.toml: the mock as
// the only model provider, no approvals, no sandbox (the test owns the
// machine), no update check.
func newRig(t testing.TB, script func(n int, req apiRequest) reply) *rig {
	t.Helper()
	dir := t.TempDir()
	r := &rig{t: t, dir: dir, home: filepath.Join(dir, "home"), codexHome: filepath.Join(dir, "codex-home"),
		proj: filepath.Join(dir, "proj"), root: filepath.Join(dir, "st-root")}
	for _, d := range []string{r.home, r.codexHome, r.proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.api = newMockAPI(t, script)
	r.env = []string{
		"HOME=" + r.home,
		"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"CODEX_HOME=" + r.codexHome,
		"ST_E2E_API_KEY=sk-e2e-not-a-real-key",
		"ST_ROOT=" + r.root,
		"ST_AGENT=alice",
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"TMPDIR=" + dir,
		"LANG=C.UTF-8",
		"NO_COLOR=1",
		// Loopback only: anything Codex tries to reach besides the mock
		// goes to a dead proxy on 127.0.0.1 and fails at once.
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"NO_PROXY=127.0.0.1,localhost",
	}
	r.writeConfig("")
	return r
}

// writeConfig writes config.toml: the base settings, then extra.
func (r *rig) writeConfig(extra string) {
	base := fmt.Sprintf(`model = "gpt-5.1-codex"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = %q
wire_api = "responses"
env_key = "ST_E2E_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[projects.%q]
trust_level = "trusted"
`, r.api.BaseURL(), r.proj)
	r.write(filepath.Join(r.codexHome, "config.toml"), base+extra)
}

func (r *rig) write(path, data string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) read(path string) string {
	r.t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// setEnv replaces or adds one variable of the rig's environment.
func (r *rig) setEnv(kv string) {
	k, _, _ := strings.Cut(kv, "=")
	for i, e := range r.env {
		if strings.HasPrefix(e, k+"=") {
			r.env[i] = kv
			return
		}
	}
	r.env = append(r.env, kv)
}

// st runs the built st in the project and returns its stdout; it fails
// the test on a non-zero exit.
func (r *rig) st(args ...string) string {
	r.t.Helper()
	return r.stAs("alice", args...)
}

// stAs is st run as another agent.
func (r *rig) stAs(agent string, args ...string) string {
	r.t.Helper()
	saved := r.env
	r.env = append(append([]string(nil), r.env...), "ST_AGENT="+agent)
	defer func() { r.env = saved }()
	out, errOut, err := r.run(10*time.Second, stBin, args...)
	if err != nil {
		r.t.Fatalf("st %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// codex runs `codex exec` on prompt in the project and returns its
// combined output; a failed run fails the test.
func (r *rig) codex(prompt string, flags ...string) string {
	r.t.Helper()
	args := append([]string{"exec", "--skip-git-repo-check", "-C", r.proj}, flags...)
	args = append(args, prompt)
	start := time.Now()
	out, errOut, err := r.run(90*time.Second, codexBin, args...)
	r.t.Logf("codex exec %q (%.1fs):\nstdout:\n%s\nstderr:\n%s", prompt, time.Since(start).Seconds(), out, errOut)
	if err != nil {
		r.t.Fatalf("codex exec: %v", err)
	}
	return out + errOut
}

func (r *rig) run(timeout time.Duration, bin string, args ...string) (stdout, stderr string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = r.proj
	cmd.Env = r.env
	cmd.Stdin = strings.NewReader("")
	// A child left holding the output pipes (a hook, st mcp) must not
	// keep Run waiting after the kill.
	cmd.WaitDelay = 5 * time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("timed out after %s", timeout)
	}
	return o.String(), e.String(), err
}

// agent creates an agent's folders under the root, as an operator would.
func (r *rig) agent(name string) {
	r.t.Helper()
	for _, sub := range []string{"inbox", "archive"} {
		if err := os.MkdirAll(filepath.Join(r.root, name, sub), 0o755); err != nil {
			r.t.Fatal(err)
		}
	}
}

// stExit runs st as alice and returns its stdout and exit code.
func (r *rig) stExit(args ...string) (string, int) {
	r.t.Helper()
	out, errOut, err := r.run(30*time.Second, stBin, args...)
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		r.t.Fatalf("st %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out, code
}

// inbox lists the message files in an agent's inbox.
func (r *rig) inbox(agent string) []string {
	r.t.Helper()
	entries, err := os.ReadDir(filepath.Join(r.root, agent, "inbox"))
	if err != nil && !os.IsNotExist(err) {
		r.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}
