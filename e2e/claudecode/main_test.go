package claudecode

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// builtDir is the folder buildST built st into, removed after the tests.
var builtDir string

// TestMain skips the whole package in -short mode, as the other
// real-client suites do: the quick run must not install Claude Code
// (hundreds of MB) nor drive it.
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("e2e/claudecode: skipped in -short mode")
		os.Exit(0)
	}
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}
