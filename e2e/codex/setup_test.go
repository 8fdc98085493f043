// Package codex runs the real Codex CLI (npm @openai/codex, pinned)
// against a mock of the OpenAI Responses API on 127.0.0.1, with st's hooks
// and MCP server wired in, and checks what reached the model and $ST_ROOT.
//
// Run alone: go test ./e2e/codex/ (-v to see each step). It needs node and
// npm; without them it skips with one line. The npm package is cached in
// $ST_E2E_CACHE (default: the user cache dir, st-e2e/) and reused.
package codex

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gofrs/flock"
)

// codexVersion is the Codex CLI these tests pin.
const codexVersion = "0.169.0"

var (
	codexBin string // the installed codex launcher
	binDir   string // holds the freshly built st and st-mcp
	stBin    string // binDir/st
)

func TestMain(m *testing.M) {
	flag.Parse()
	// A Codex run mostly waits (on its start-up, the mock, the hooks), so
	// run more of them at once than there are cores, unless told.
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		flag.Set("test.parallel", "6")
	}
	if testing.Short() {
		fmt.Println("e2e/codex: skipped in -short mode")
		os.Exit(0)
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Printf("e2e/codex: skipped: %s not on PATH (install Node to run the real-client tests)\n", tool)
			os.Exit(0)
		}
	}
	tmp, err := os.MkdirTemp("", "st-e2e-codex-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := 1
	if err := setup(tmp); err != nil {
		fmt.Fprintln(os.Stderr, "e2e/codex setup:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

func setup(tmp string) error {
	var err error
	if codexBin, err = installCodex(); err != nil {
		return err
	}
	binDir = filepath.Join(tmp, "bin")
	stBin = filepath.Join(binDir, "st")
	return buildST(binDir)
}

// installCodex installs the pinned npm package into the cache folder,
// once: a lock keeps parallel test runs from installing over each other.
func installCodex() (string, error) {
	cache := os.Getenv("ST_E2E_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		cache = filepath.Join(dir, "st-e2e")
	}
	dir := filepath.Join(cache, "codex-"+codexVersion)
	bin := filepath.Join(dir, "node_modules", ".bin", "codex")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock := flock.New(filepath.Join(cache, "codex-"+codexVersion+".lock"))
	if err := lock.Lock(); err != nil {
		return "", err
	}
	defer lock.Unlock()
	if out, err := exec.Command(bin, "--version").CombinedOutput(); err == nil && bytes.Contains(out, []byte(codexVersion)) {
		return bin, nil
	}
	cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error",
		"@openai/codex@"+codexVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install @openai/codex@%s: %v\n%s", codexVersion, err, out)
	}
	return bin, nil
}

// buildST builds st and st-mcp as installed: static, into dir.
func buildST(dir string) error {
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	for _, name := range []string{"st", "st-mcp"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", name, err, out)
		}
	}
	return nil
}
