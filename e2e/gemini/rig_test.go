package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rig is one scratch world for a Gemini CLI run: a fresh home whose
// ~/.gemini/settings.json picks the API-key sign-in and turns usage
// statistics and update checks off (what a user has before reading st's
// README), a project, an st root, and the mock API.
type rig struct {
	t       testing.TB
	dir     string
	home    string // HOME
	proj    string // the project Gemini CLI works in
	root    string // ST_ROOT
	api     *mockAPI
	env     []string
	offloop string // the guard's log of addresses off loopback
}

// baseSettings is the user's own Gemini CLI settings before st.
const baseSettings = `{
  "security": {
    "auth": {
      "selectedType": "gemini-api-key"
    }
  },
  "privacy": {
    "usageStatisticsEnabled": false
  },
  "general": {
    "enableAutoUpdate": false,
    "enableAutoUpdateNotification": false
  }
}
`

func newRig(t testing.TB, script func(n int, req apiRequest) reply) *rig {
	t.Helper()
	dir := t.TempDir()
	r := &rig{t: t, dir: dir, home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj"),
		root: filepath.Join(dir, "st-root"), offloop: filepath.Join(dir, "offloop.log")}
	for _, d := range []string{filepath.Join(r.home, ".gemini"), r.proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.write(filepath.Join(r.home, ".gemini", "settings.json"), baseSettings)
	r.api = newMockAPI(t, script)
	r.env = []string{
		"HOME=" + r.home,
		"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"GEMINI_API_KEY=e2e-not-a-real-key",
		"GOOGLE_GEMINI_BASE_URL=" + r.api.BaseURL(),
		"ST_ROOT=" + r.root,
		"ST_AGENT=alice",
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"TMPDIR=" + dir,
		"LANG=C.UTF-8",
		"NO_COLOR=1",
		"TERM=dumb",
		"CI=1",
		"NODE_OPTIONS=--require " + guardJS,
		"ST_E2E_OFFLOOP_LOG=" + r.offloop,
	}
	return r
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

// setEnv replaces or adds one KEY=value.
func (r *rig) setEnv(kv string) {
	key, _, _ := strings.Cut(kv, "=")
	for i, e := range r.env {
		if strings.HasPrefix(e, key+"=") {
			r.env[i] = kv
			return
		}
	}
	r.env = append(r.env, kv)
}

// stExit runs st in the project with the rig's environment.
func (r *rig) stExit(args ...string) (string, int) {
	r.t.Helper()
	cmd := exec.Command(stBin, args...)
	cmd.Dir, cmd.Env = r.proj, r.env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatalf("st %s: %v", strings.Join(args, " "), err)
	}
	return string(out), code
}

// st runs st and fails the test on a non-zero exit.
func (r *rig) st(args ...string) string {
	r.t.Helper()
	out, code := r.stExit(args...)
	if code != 0 {
		r.t.Fatalf("st %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// stAs runs st as another agent.
func (r *rig) stAs(agent string, args ...string) string {
	r.t.Helper()
	saved := append([]string(nil), r.env...)
	defer func() { r.env = saved }()
	r.setEnv("ST_AGENT=" + agent)
	return r.st(args...)
}

// trust answers Gemini CLI's trust dialog for the project, as a person
// does once: the folder goes into ~/.gemini/trustedFolders.json.
func (r *rig) trust() {
	data, _ := json.Marshal(map[string]string{r.proj: "TRUST_FOLDER"})
	r.write(filepath.Join(r.home, ".gemini", "trustedFolders.json"), string(data))
}

// gemini runs one headless turn (gemini -p prompt, every tool call
// approved) in the project and returns what it printed on stdout and
// stderr. It fails the test on a non-zero exit and on any address off
// loopback the client tried.
func (r *rig) gemini(prompt string, extra ...string) (stdout, stderr string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append([]string{geminiJS, "-p", prompt, "--approval-mode", "yolo"}, extra...)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir, cmd.Env = r.proj, r.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		r.t.Fatalf("gemini -p %q: %v\nstdout:\n%s\nstderr:\n%s", prompt, err, out.String(), errb.String())
	}
	r.checkLoopback()
	return out.String(), errb.String()
}

// checkLoopback fails the test when the client tried any address off
// loopback.
func (r *rig) checkLoopback() {
	r.t.Helper()
	if data, err := os.ReadFile(r.offloop); err == nil && len(data) > 0 {
		r.t.Errorf("the client tried to leave loopback:\n%s", data)
	}
}

// hookErrors are the lines where Gemini CLI reports a hook that failed.
func hookErrors(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		l := strings.ToLower(line)
		if strings.Contains(l, "hook") && (strings.Contains(l, "fail") || strings.Contains(l, "error") || strings.Contains(l, "warning")) {
			out = append(out, line)
		}
	}
	return out
}
