package codex

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexCLI runs `codex args…` in the project and fails the test on a
// non-zero exit.
func (r *rig) codexCLI(args ...string) string {
	r.t.Helper()
	out, errOut, err := r.run(2*time.Minute, codexBin, args...)
	if err != nil {
		r.t.Fatalf("codex %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	return out + errOut
}

// Codex loads this checkout as a marketplace, lists the st plugin from
// it, installs it (hooks, skill and MCP server in its plugin cache) and
// removes it again, leaving config.toml as it was.
func TestPluginMarketplace(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(r.codexHome, "config.toml")
	before := r.read(config)
	if out := r.codexCLI("plugin", "marketplace", "add", checkout); !strings.Contains(out, "Added marketplace `smalltalk`") {
		t.Errorf("marketplace add:\n%s", out)
	}
	list := r.codexCLI("plugin", "list")
	if !strings.Contains(list, "st@smalltalk") || !strings.Contains(list, filepath.Join(checkout, "plugins", "codex")) {
		t.Fatalf("plugin list does not offer st@smalltalk from the checkout:\n%s", list)
	}
	r.codexCLI("plugin", "add", "st@smalltalk")
	installed := filepath.Join(r.codexHome, "plugins", "cache", "smalltalk", "st", "0.1.0")
	for _, f := range []string{".codex-plugin/plugin.json", "hooks/hooks.json", "skills/st/SKILL.md", ".mcp.json"} {
		r.read(filepath.Join(installed, filepath.FromSlash(f)))
	}
	if cfg := r.read(config); !strings.Contains(cfg, `[plugins."st@smalltalk"]`) {
		t.Errorf("config.toml does not enable the plugin:\n%s", cfg)
	}
	if list := r.codexCLI("plugin", "list"); !strings.Contains(list, "installed") {
		t.Errorf("plugin list after add:\n%s", list)
	}
	r.codexCLI("plugin", "remove", "st@smalltalk")
	r.codexCLI("plugin", "marketplace", "remove", "smalltalk")
	if after := r.read(config); after != before {
		t.Errorf("config.toml after remove:\n%s\nbefore:\n%s", after, before)
	}
}
