package stackstart

import (
	"os/exec"
	"strings"
	"testing"
)

// The package works only if its initialiser runs before the package
// initialisers that grow the stack deep (the YAML library's, the shell
// parser's): Go initialises a package that imports nothing first, so it
// must keep importing nothing.
func TestImportsNothing(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	if imports := strings.TrimSpace(string(out)); imports != "" {
		t.Errorf("stackstart imports %s", imports)
	}
}
