package claudecode

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
)

// ClaudeVersion is the Claude Code release these tests pin.
const ClaudeVersion = "2.1.328"

const claudePackageName = "@anthropic-ai/claude-code"

// installClaude installs the pinned release once per machine and
// returns the path of its claude binary.
var installClaude = sync.OnceValues(func() (string, error) {
	installed := func(dir string) bool { return installedVersion(claudeIn(dir)) == ClaudeVersion }
	dir, err := e2ekit.Install(claudePackageName, ClaudeVersion, installed, "DISABLE_AUTOUPDATER=1")
	if err != nil {
		return "", err
	}
	return claudeIn(dir), nil
})

func claudeIn(dir string) string { return filepath.Join(dir, "node_modules", ".bin", "claude") }

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
	if s, ok := err.(e2ekit.Skip); ok {
		t.Skip(s.Reason)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// buildST builds st, st-mcp, st-mcp-server and st-trace once, statically as the README installs
// them, into one folder that the tests put first on PATH.
var buildST = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "st-e2e-bin-")
	if err != nil {
		return "", err
	}
	builtDir = dir
	return dir, e2ekit.BuildST(dir, "st", "st-mcp", "st-mcp-server", "st-trace")
})

func stBinDir(t testing.TB) string {
	t.Helper()
	dir, err := buildST()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
