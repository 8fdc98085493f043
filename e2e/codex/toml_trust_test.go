package codex

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/wiring"
)

// Hooks wired in config.toml (the `st hooks path --for codex` fragment)
// need trusting like hooks.json's: doctor fails them until Codex trusts
// them, and then agrees with Codex, hook by hook.
func TestDoctorChecksTrustOfConfigTOMLHooks(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	fragment := r.st("hooks", "path", "--for", "codex")
	start := strings.Index(fragment, "[[hooks.SessionStart]]")
	end := strings.Index(fragment, "\n(read-only")
	r.writeConfig("\n" + fragment[start:end])
	list := r.hooksList()
	for _, h := range list {
		t.Logf("Codex lists %s %s %s", h.Key, h.CurrentHash, h.TrustStatus)
	}
	if len(list) != len(wiring.CodexEntries) || statusOf(list, "hook codex-session-start") != "untrusted" {
		t.Fatalf("Codex lists %+v, want st's hooks untrusted", list)
	}
	doc, code := r.stExit("hooks", "doctor")
	if code != 1 || strings.Count(doc, "not trusted by Codex") != len(wiring.CodexEntries) || !strings.Contains(doc, "type /hooks") {
		t.Errorf("doctor on untrusted config.toml hooks: exit %d\n%s", code, doc)
	}
	for _, h := range list {
		if !strings.Contains(doc, h.Key) {
			t.Errorf("doctor does not name Codex's key %s:\n%s", h.Key, doc)
		}
	}
	r.trustAll()
	doc, code = r.stExit("hooks", "doctor")
	if code != 0 || strings.Contains(doc, "FAIL") || strings.Count(doc, "trusted by Codex") != len(wiring.CodexEntries) {
		t.Errorf("doctor on trusted config.toml hooks: exit %d\n%s", code, doc)
	}
}

// `st init --for codex`, then the whole `st hooks path --for codex`
// fragment appended to config.toml, as older docs had it: Codex starts
// (no duplicate [mcp_servers.st] table), runs st's hooks and lists st's
// MCP server once.
func TestInitThenHooksPathFragment(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "message", "send", "alice", "-m", "ping", "--subject", "fragment")
	r.st("init", "--for", "codex")
	out := r.st("hooks", "path", "--for", "codex")
	const head = "Config fragment to adapt:\n"
	start, end := strings.Index(out, head), strings.Index(out, "\n(read-only")
	if start < 0 || end < start {
		t.Fatalf("no fragment in:\n%s", out)
	}
	config := filepath.Join(r.codexHome, "config.toml")
	r.write(config, r.read(config)+"\n"+out[start+len(head):end])
	if n := strings.Count(r.read(config), "[mcp_servers.st]"); n != 1 {
		t.Errorf("config.toml holds %d [mcp_servers.st] tables, want 1:\n%s", n, r.read(config))
	}
	r.trustAll()
	r.codex("hello")
	if reqs := r.api.Requests(); len(reqs) == 0 || !reqs[0].Contains("## st inbox (1 unread)") {
		t.Errorf("Codex did not run st's SessionStart hook from the appended fragment")
	}
}
