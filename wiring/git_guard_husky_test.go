package wiring

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitGuardHusky: with husky v9 (from npm, as a project gets it) the
// user's .husky/pre-commit still runs after `st hooks install --for git`,
// behind st's guard. husky's dispatcher takes the hook's name from $0, so
// a chained hook run as pre-commit.st-chained silently ran nothing.
func TestGitGuardHusky(t *testing.T) {
	if testing.Short() {
		t.Skip("husky test skipped in -short mode (npm install)")
	}
	for _, tool := range []string{"git", "node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("husky test skipped: no %s on PATH", tool)
		}
	}
	tmp := t.TempDir()
	st := filepath.Join(tmp, "bin", "st")
	if out, err := exec.Command("go", "build", "-o", st, "github.com/smalltalk-go/st/cmd/st").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	repo := filepath.Join(tmp, "repo")
	env := append(os.Environ(), "ST_ROOT="+filepath.Join(tmp, "store"), "ST_AGENT=alice",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x",
		"npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false")
	cmd := func(name string, args ...string) *exec.Cmd {
		c := exec.Command(name, args...)
		c.Dir, c.Env = repo, env
		return c
	}
	run := func(name string, args ...string) string {
		t.Helper()
		out, err := cmd(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if err := os.MkdirAll(filepath.Join(repo, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("git", "init", "-q")
	run("npm", "init", "-y")
	if out, err := cmd("npm", "install", "--save-dev", "husky@9").CombinedOutput(); err != nil {
		t.Skipf("husky test skipped: npm install husky@9 failed (no registry?): %v\n%s", err, out)
	}
	run("npx", "husky", "init")
	if got := strings.TrimSpace(run("git", "config", "core.hooksPath")); got != ".husky/_" {
		t.Fatalf("husky set core.hooksPath to %q", got)
	}
	// The user's hook, as husky runs it: it writes a marker.
	if err := os.WriteFile(filepath.Join(repo, ".husky", "pre-commit"), []byte("echo USER-HOOK-RAN >&2\necho \"$0\" > marker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := run(st, "hooks", "install", "--for", "git"); !strings.Contains(out, ".husky/_/pre-commit (it runs the previous hook") {
		t.Fatalf("install: %s", out)
	}
	for name, data := range map[string]string{"src/a.go": "package src\n", "b.go": "package b\n", ".gitignore": "node_modules\nmarker\n"} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	marker := filepath.Join(repo, "marker")

	// st's guard runs first: bob's reservation refuses alice's commit,
	// and the user's hook does not run.
	c := cmd(st, "reserve", "src/")
	c.Env = append(c.Env, "ST_AGENT=bob")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("reserve: %v\n%s", err, out)
	}
	run("git", "add", "src/a.go")
	var stderr bytes.Buffer
	c = cmd("git", "commit", "-q", "-m", "touch src")
	c.Stderr = &stderr
	if err := c.Run(); err == nil || !strings.Contains(stderr.String(), "commit refused") || !strings.Contains(stderr.String(), "src/a.go: bob holds") {
		t.Fatalf("a commit of bob's reserved path: %v, stderr %q", err, stderr.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the user's hook ran although st's guard refused the commit")
	}

	// A free path: the guard passes, then husky runs the user's hook.
	run("git", "reset", "-q")
	run("git", "add", "b.go", ".gitignore", "package.json", ".husky/pre-commit")
	out := run("git", "commit", "-q", "-m", "b")
	if !strings.Contains(out, "USER-HOOK-RAN") {
		t.Errorf("the commit did not run .husky/pre-commit; output %q", out)
	}
	if data, err := os.ReadFile(marker); err != nil || strings.TrimSpace(string(data)) != ".husky/pre-commit" {
		t.Errorf("marker: %q, %v; want the user's hook to have run as .husky/pre-commit", data, err)
	}
	if log := run("git", "log", "--oneline"); strings.Count(log, "\n") != 1 {
		t.Errorf("git log: %q", log)
	}
}
