package main

import (
	"os/exec"
	"strings"
	"testing"
)

// st itself links none of the large libraries its companions hold (the
// MCP SDK in st-mcp-server, goldmark in st-dashboard, the OpenTelemetry
// SDK in st-trace): every verb and hook starts as fast as a small program.
func TestStLinksNoCompanionLibrary(t *testing.T) {
	linksNone(t, ".", "go.opentelemetry.io/", "github.com/modelcontextprotocol/", "github.com/yuin/goldmark", "net/http")
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
