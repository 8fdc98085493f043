package codex

import (
	"os"
	"os/exec"
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

// A Codex session with the st plugin installed from this checkout (and
// its hooks trusted, as /hooks asks): the first request carries now.md
// and the unread message once, an apply_patch under bob's reservation
// is refused with the reason, the model's call of the plugin's st MCP
// tool sends as the session's agent, and the event log records the
// session.
func TestPluginSession(t *testing.T) {
	t.Parallel()
	var sendNS string
	r := newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0:
			for _, name := range req.ToolNames() {
				if ns, ok := strings.CutSuffix(name, "/st_msg_send"); ok {
					sendNS = ns
				}
			}
			return reply{Items: []item{{Call: "st_msg_send", NS: sendNS, Args: map[string]any{"to": "bob", "body": "PLUGIN-MCP-BODY"}}}}
		case 2:
			return custom("apply_patch", patchOf("src/a.go"))
		}
		return say("done")
	})
	if out, err := exec.Command("git", "init", "-q", r.proj).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	r.agent("alice")
	r.agent("bob")
	r.write(filepath.Join(r.root, "alice", "context", "now.md"), "PLUGIN-NOW-MD: parser half done\n")
	r.stAs("bob", "message", "send", "alice", "-m", "welcome", "--subject", "PLUGIN-SUBJ")
	r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	r.codexCLI("plugin", "marketplace", "add", checkout)
	r.codexCLI("plugin", "add", "st@smalltalk")
	r.trustAll()
	// Two sessions: the rig's model for the MCP call, one that Codex
	// offers apply_patch to for the edit.
	logs := r.codex("tell bob")
	logs += r.codex("edit the parser", "-m", editModel)

	reqs := r.api.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want the send, its end, the patch and its end:\n%s", len(reqs), logs)
	}
	if sendNS == "" {
		t.Fatalf("the first request offers no st_msg_send: %v", reqs[0].ToolNames())
	}
	for _, want := range []string{"PLUGIN-NOW-MD", "Subject: PLUGIN-SUBJ"} {
		if n := strings.Count(reqs[0].Raw, want); n != 1 {
			t.Errorf("%q reached the first request %d times, want once", want, n)
		}
	}
	if !strings.Contains(reqs[0].Raw, "Working beside other agents through st.") {
		t.Errorf("the first request does not offer the st skill")
	}
	if doctor, _ := r.stExit("hooks", "doctor"); !strings.Contains(doctor, "# Codex: st is wired by its plugin") {
		t.Errorf("doctor does not see the plugin:\n%s", doctor)
	}
	if out, _ := reqs[3].FunctionOutput("call_2_0"); !strings.Contains(out, "src/a.go is reserved exclusively by agent bob") ||
		!strings.Contains(out, "(reason: parser rewrite)") {
		t.Errorf("the refused apply_patch told the model %q", out)
	}
	if _, err := os.Stat(filepath.Join(r.proj, "src", "a.go")); err == nil {
		t.Errorf("src/a.go was written despite bob's reservation")
	}
	found := false
	for _, name := range r.inbox("bob") {
		msg := r.read(filepath.Join(r.root, "bob", "inbox", name))
		found = found || strings.Contains(msg, "PLUGIN-MCP-BODY") && strings.Contains(msg, "from: alice")
	}
	if !found {
		t.Errorf("bob's inbox lacks the message alice sent through the plugin's MCP server (%s)", sendNS)
	}
	if events := r.st("events"); !strings.Contains(events, "advice=reserved") {
		t.Errorf("alice's event log does not record the session's refusal:\n%s", events)
	}
}
