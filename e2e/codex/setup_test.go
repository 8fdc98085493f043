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
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
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
	os.Exit(e2ekit.Main(m, "e2e/codex", setup))
}

func setup(tmp string) error {
	var err error
	if codexBin, err = installCodex(); err != nil {
		return err
	}
	binDir = filepath.Join(tmp, "bin")
	stBin = filepath.Join(binDir, "st")
	return e2ekit.BuildST(binDir, "st", "st-mcp", "st-mcp-server", "st-trace")
}

// installCodex installs the pinned npm package once per machine and
// returns its launcher.
func installCodex() (string, error) {
	bin := func(dir string) string { return filepath.Join(dir, "node_modules", ".bin", "codex") }
	dir, err := e2ekit.Install("@openai/codex", codexVersion, func(dir string) bool {
		out, err := exec.Command(bin(dir), "--version").CombinedOutput()
		return err == nil && bytes.Contains(out, []byte(codexVersion))
	})
	if err != nil {
		return "", err
	}
	return bin(dir), nil
}
