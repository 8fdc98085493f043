package claudecode

import (
	"os"
	"testing"
)

// builtDir is the folder buildST built st into, removed after the tests.
var builtDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}
