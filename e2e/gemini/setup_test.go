// Package gemini runs the real Gemini CLI (npm @google/gemini-cli,
// pinned) against a mock of the Gemini API on 127.0.0.1, with st's hooks
// and MCP server wired in, and checks what reached the model and
// $ST_ROOT.
//
// Run alone: go test ./e2e/gemini/ (-v to see each step). It needs node
// and npm; without them it skips with one line. The npm package is cached
// in $ST_E2E_CACHE (default: the user cache dir, st-e2e/) and reused.
// Every socket the client opens goes through a guard (testdata/guard.cjs)
// that refuses and records any address off loopback; a test fails on one.
package gemini

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

// geminiVersion is the Gemini CLI these tests pin.
const geminiVersion = "0.61.0"

var (
	geminiJS string // the installed client's entry point
	binDir   string // holds the freshly built st and st-mcp
	stBin    string // binDir/st
	guardJS  string // testdata/guard.cjs, absolute
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("e2e/gemini: skipped in -short mode")
		os.Exit(0)
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			fmt.Printf("e2e/gemini: skipped: %s not on PATH (install Node to run the real-client tests)\n", tool)
			os.Exit(0)
		}
	}
	tmp, err := os.MkdirTemp("", "st-e2e-gemini-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := 1
	if err := setup(tmp); err != nil {
		fmt.Fprintln(os.Stderr, "e2e/gemini setup:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

func setup(tmp string) error {
	var err error
	if geminiJS, err = installGemini(); err != nil {
		return err
	}
	if guardJS, err = filepath.Abs(filepath.Join("testdata", "guard.cjs")); err != nil {
		return err
	}
	binDir = filepath.Join(tmp, "bin")
	stBin = filepath.Join(binDir, "st")
	return buildST(binDir)
}

// installGemini installs the pinned npm package into the cache folder,
// once: a lock keeps parallel test runs from installing over each other.
func installGemini() (string, error) {
	cache := os.Getenv("ST_E2E_CACHE")
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		cache = filepath.Join(dir, "st-e2e")
	}
	dir := filepath.Join(cache, "gemini-"+geminiVersion)
	js := filepath.Join(dir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock := flock.New(filepath.Join(cache, "gemini-"+geminiVersion+".lock"))
	if err := lock.Lock(); err != nil {
		return "", err
	}
	defer lock.Unlock()
	pkg, err := os.ReadFile(filepath.Join(dir, "node_modules", "@google", "gemini-cli", "package.json"))
	if err == nil && bytes.Contains(pkg, []byte(`"version": "`+geminiVersion+`"`)) {
		if _, err := os.Stat(js); err == nil {
			return js, nil
		}
	}
	cmd := exec.Command("npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error",
		"@google/gemini-cli@"+geminiVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install @google/gemini-cli@%s: %v\n%s", geminiVersion, err, out)
	}
	return js, nil
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
