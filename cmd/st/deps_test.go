package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// st itself links none of the large libraries its companions hold (the
// MCP SDK in st-mcp-server, goldmark in st-dashboard, the OpenTelemetry
// SDK in st-trace): every verb and hook starts as fast as a small program.
// Nor does it link Go's crypto, whose FIPS module runs initialisers at
// every start: st's digests are names, taken with internal/sha256.
func TestStLinksNoCompanionLibrary(t *testing.T) {
	linksNone(t, ".", "go.opentelemetry.io/", "github.com/modelcontextprotocol/", "github.com/yuin/goldmark", "net/http", "crypto")
}

// st-mcp, which clients start for every session, is the front: it links
// nothing of the MCP SDK, whose initialisers alone take longer than the
// opening it answers. The SDK is st-mcp-server's.
func TestSTMCPLinksNoSDK(t *testing.T) {
	linksNone(t, "../st-mcp", "github.com/modelcontextprotocol/", "net/http", "crypto/tls")
}

// linksNone fails when pkg links a package whose path starts with one of
// prefixes.
func linksNone(t *testing.T, pkg string, prefixes ...string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed %d packages: %q", len(deps), out)
	}
	for _, dep := range deps {
		for _, big := range prefixes {
			if strings.HasPrefix(dep, big) {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}

// st's own packages build nothing before main: every start of every
// command would pay for it in page faults (docs/performance.md, "Where
// start-up goes"). Tables are switches, constants or functions, and
// regular expressions lazyre values. stackstart's and heapstart's
// initialisers are their purpose.
func TestOwnPackagesInitialiseNothing(t *testing.T) {
	cmd := exec.Command(stBinary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("st --version: %v\n%s", err, out)
	}
	traced := 0
	for line := range strings.Lines(string(out)) {
		// "init github.com/smalltalk-go/st/wiring @0.9 ms, 0.2 ms clock, 2528 bytes, 15 allocs"
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "init" {
			continue
		}
		traced++
		pkg, ours := strings.CutPrefix(fields[1], "github.com/smalltalk-go/st/")
		if ours && pkg != "internal/stackstart" && pkg != "internal/heapstart" {
			t.Errorf("%s runs an initialiser: %s", fields[1], strings.TrimSpace(line))
		}
	}
	if traced == 0 {
		t.Fatalf("GODEBUG=inittrace=1 traced no initialiser:\n%s", out)
	}
}
