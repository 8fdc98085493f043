// Package e2ekit is what the real-client tests (e2e/claudecode,
// e2e/codex, e2e/gemini) share: a pinned npm release installed once per
// machine, and st built as the README installs it.
package e2ekit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

// Skip says why the real-client tests cannot run on this machine (no
// node or npm, no registry): they skip with its reason there.
type Skip struct{ Reason string }

func (s Skip) Error() string { return s.Reason }

// CacheDir is where pinned releases are installed: $ST_E2E_CACHE, else
// st-e2e in the user's cache folder; reused across runs.
func CacheDir() (string, error) {
	if base := os.Getenv("ST_E2E_CACHE"); base != "" {
		return base, nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "st-e2e"), nil
}

// offline matches npm's errors for a machine that cannot reach the
// registry at all. Only these skip; any other install failure (a
// missing version, a broken postinstall, a full disk) fails the tests,
// because it would also break them in CI where they must run.
var offline = regexp.MustCompile(`\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|ETIMEDOUT|ECONNRESET)\b`)

// Install installs pkg at version into its own folder of the cache, once
// per machine (under a file lock, so parallel test processes wait for
// one install), and returns that folder. installed reports whether the
// folder already holds that version; it is asked again after npm ran.
// env is added to npm's environment.
func Install(pkg, version string, installed func(dir string) bool, env ...string) (string, error) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", Skip{tool + " not on PATH: the tests of " + pkg + " need node and npm"}
		}
	}
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, filepath.Base(pkg)+"-"+version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock := flock.New(filepath.Join(dir, ".install.lock"))
	if err := lock.Lock(); err != nil {
		return "", err
	}
	defer func() { _ = lock.Unlock() }() // closing the lock file releases it anyway
	if installed(dir) {
		return dir, nil
	}
	spec := pkg + "@" + version
	cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save", "--loglevel=error", spec)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		if offline.Match(out) {
			return "", Skip{"npm registry unreachable, cannot install " + spec}
		}
		return "", fmt.Errorf("npm install %s: %v\n%s", spec, err, out)
	}
	if !installed(dir) {
		return "", fmt.Errorf("npm installed %s into %s, but it does not report that version", spec, dir)
	}
	return dir, nil
}

// BuildST builds the named commands of this module (st, st-mcp, …)
// statically, as the README installs them, into dir.
func BuildST(dir string, names ...string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	for _, name := range names {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, out)
		}
	}
	return nil
}

// moduleRoot is the folder holding go.mod, three levels up from here.
func moduleRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot find the module's folder")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", ".."), nil
}

// ReadmeSteps are the commands of the first sh block under the README's
// "## <section>" heading, one a line, each without its comment: what a
// newcomer types, which the tests follow literally.
func ReadmeSteps(section string) ([]string, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, err
	}
	_, text, ok := strings.Cut(string(data), "\n## "+section+"\n")
	if !ok {
		return nil, fmt.Errorf("README.md has no %q section", "## "+section)
	}
	_, block, ok := strings.Cut(text, "```sh\n")
	block, _, closed := strings.Cut(block, "```")
	if !ok || !closed {
		return nil, fmt.Errorf("the README's %s section has no sh block", section)
	}
	var steps []string
	for line := range strings.Lines(block) {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			steps = append(steps, line)
		}
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("the README's %s sh block has no commands", section)
	}
	return steps, nil
}

// Main is a real-client package's TestMain after flag.Parse: it skips
// the whole package with one line in -short mode or where Install says
// it cannot run, runs setup with a scratch folder (removed afterwards),
// then the tests, and returns the exit code. name labels its lines.
func Main(m *testing.M, name string, setup func(tmp string) error) int {
	if testing.Short() {
		fmt.Println(name + ": skipped in -short mode")
		return 0
	}
	tmp, err := os.MkdirTemp("", "st-"+strings.ReplaceAll(name, "/", "-")+"-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = os.RemoveAll(tmp) }() // a scratch folder under the temp dir
	err = setup(tmp)
	if s, ok := err.(Skip); ok {
		fmt.Println(name + ": skipped: " + s.Reason)
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, name+" setup:", err)
		return 1
	}
	return m.Run()
}
