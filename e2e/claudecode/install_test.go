package claudecode

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gofrs/flock"
)

// ClaudeVersion is the Claude Code release these tests pin.
const ClaudeVersion = "2.1.328"

const claudePackage = "@anthropic-ai/claude-code@" + ClaudeVersion

// cacheDir is where the pinned release is installed: $ST_E2E_CACHE, else
// the user cache folder; one folder per version, reused across runs.
func cacheDir() (string, error) {
	base := os.Getenv("ST_E2E_CACHE")
	if base == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		base = filepath.Join(c, "st-e2e")
	}
	return filepath.Join(base, "claude-"+ClaudeVersion), nil
}

// errSkip marks a machine where the tests cannot run (no node or npm,
// no registry): they skip there with its reason.
type errSkip struct{ reason string }

func (e errSkip) Error() string { return e.reason }

// offline matches npm's errors for a machine that cannot reach the
// registry at all. Only these skip; any other install failure (a
// missing version, a broken postinstall, a full disk) fails the tests,
// because it would also break them in CI where they must run.
var offline = regexp.MustCompile(`\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|ETIMEDOUT|ECONNRESET)\b`)

// installClaude installs the pinned release once per machine (under a
// file lock, so parallel test processes wait for one install) and
// returns the path of its claude binary.
var installClaude = sync.OnceValues(func() (string, error) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", errSkip{tool + " not on PATH: the Claude Code tests need node and npm"}
		}
	}
	dir, err := cacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock := flock.New(filepath.Join(dir, ".install.lock"))
	if err := lock.Lock(); err != nil {
		return "", err
	}
	defer lock.Unlock()
	bin := filepath.Join(dir, "node_modules", ".bin", "claude")
	if installedVersion(bin) == ClaudeVersion {
		return bin, nil
	}
	cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save", claudePackage)
	cmd.Env = append(os.Environ(), "DISABLE_AUTOUPDATER=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		if offline.Match(out) {
			return "", errSkip{"npm registry unreachable, cannot install " + claudePackage}
		}
		return "", fmt.Errorf("npm install %s: %v\n%s", claudePackage, err, out)
	}
	if v := installedVersion(bin); v != ClaudeVersion {
		return "", fmt.Errorf("installed %s but %s --version says %q", claudePackage, bin, v)
	}
	return bin, nil
})

// installedVersion is the version claude at bin reports ("" if none).
func installedVersion(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return ""
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return v
}

// claudeBinary returns the pinned claude, skipping t with one line when
// node or npm is missing or the registry is unreachable.
func claudeBinary(t testing.TB) string {
	t.Helper()
	bin, err := installClaude()
	if s, ok := err.(errSkip); ok {
		t.Skip(s.reason)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// buildST builds st and st-mcp once, statically as the README installs
// them, into one folder that the tests put first on PATH.
var buildST = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "st-e2e-bin-")
	if err != nil {
		return "", err
	}
	builtDir = dir
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	for _, name := range []string{"st", "st-mcp"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, out)
		}
	}
	return dir, nil
})

func stBinDir(t testing.TB) string {
	t.Helper()
	dir, err := buildST()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// moduleRoot is the folder holding go.mod, two levels up from here.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root := filepath.Join(wd, "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return "", err
	}
	return filepath.Abs(root)
}
