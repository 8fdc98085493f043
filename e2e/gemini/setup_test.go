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
	"os"
	"path/filepath"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
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
	os.Exit(e2ekit.Main(m, "e2e/gemini", setup))
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
	return e2ekit.BuildST(binDir, "st", "st-mcp", "st-mcp-server", "st-trace")
}

// installGemini installs the pinned npm package once per machine and
// returns the client's entry point.
func installGemini() (string, error) {
	pkgDir := func(dir string) string { return filepath.Join(dir, "node_modules", "@google", "gemini-cli") }
	dir, err := e2ekit.Install("@google/gemini-cli", geminiVersion, func(dir string) bool {
		pkg, err := os.ReadFile(filepath.Join(pkgDir(dir), "package.json"))
		if err != nil || !bytes.Contains(pkg, []byte(`"version": "`+geminiVersion+`"`)) {
			return false
		}
		_, err = os.Stat(filepath.Join(pkgDir(dir), "bundle", "gemini.js"))
		return err == nil
	})
	if err != nil {
		return "", err
	}
	return filepath.Join(pkgDir(dir), "bundle", "gemini.js"), nil
}
