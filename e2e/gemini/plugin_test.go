package gemini

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// extensionDir is the st extension in this checkout.
func extensionDir(t testing.TB) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "plugins", "gemini"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// extensions runs `gemini extensions args…` with stdin as input and
// fails the test on a non-zero exit.
func (r *rig) extensions(stdin string, args ...string) string {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{geminiJS, "extensions"}, args...)...)
	cmd.Dir, cmd.Env = r.proj, r.env
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("gemini extensions %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// `gemini extensions validate` accepts the st extension.
func TestPluginValidates(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	out := r.extensions("", "validate", extensionDir(t))
	if !strings.Contains(out, "successfully validated") {
		t.Errorf("validate: %s", out)
	}
}

// The st extension installed from the checkout into a fresh home, the
// agent set through its own setting (no ST_AGENT anywhere): the first
// request carries now.md and the unread message once, a write_file
// under bob's reservation is refused with the reason, an st MCP call
// sends as the agent, the event log records the session, and
// uninstalling leaves settings.json byte for byte as it was.
func TestPluginSession(t *testing.T) {
	t.Parallel()
	var r *rig
	r = newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0:
			return call("write_file", map[string]any{"file_path": filepath.Join(r.proj, "src", "a.go"), "content": "changed\n"})
		case 1:
			return call("mcp_st_st_msg_send", map[string]any{"to": "bob", "body": "PLUGIN-MCP-BODY"})
		}
		return say("done")
	})
	r.write(filepath.Join(r.proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	r.write(filepath.Join(r.proj, "src", "a.go"), "package a\n")
	saved := append([]string(nil), r.env...)
	r.setEnv("ST_AGENT=alice")
	r.write(filepath.Join(r.root, "alice", "context", "now.md"), "PLUGIN-NOW-MD: parser half done\n")
	r.stAs("bob", "message", "send", "alice", "-m", "welcome", "--subject", "PLUGIN-SUBJ")
	r.stAs("bob", "reserve", "src/**", "--reason", "parser rewrite")
	r.env = saved
	r.setEnv("ST_AGENT=")
	settings := filepath.Join(r.home, ".gemini", "settings.json")
	before := r.read(settings)

	r.extensions("y\n", "install", extensionDir(t), "--consent", "--skip-settings")
	r.extensions("alice\n", "config", "st", "ST_PLUGIN_AGENT")
	// The extensions commands report usage to play.googleapis.com (the
	// guard refused it); the session itself must stay on loopback.
	if err := os.Remove(r.offloop); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	r.trust()
	_, stderr := r.gemini("edit src/a.go, then tell bob")

	reqs := r.api.Requests()
	if len(reqs) < 3 {
		t.Fatalf("%d model requests, want the edit, the send and the end", len(reqs))
	}
	for _, want := range []string{"PLUGIN-NOW-MD", "Subject: PLUGIN-SUBJ"} {
		if n := strings.Count(reqs[0].Raw, want); n != 1 {
			t.Errorf("%q reached the first request %d times, want once", want, n)
		}
	}
	// The context file, the skill's short text, is in every request.
	if !strings.Contains(reqs[0].Raw, "Reserve before editing shared files.") {
		t.Errorf("the first request lacks the extension's context file")
	}
	r.setEnv("ST_AGENT=alice")
	if doctor, _ := r.stExit("hooks", "doctor"); !strings.Contains(doctor, "# Gemini CLI: st is wired by its plugin") {
		t.Errorf("doctor does not see the extension:\n%s", doctor)
	}
	r.setEnv("ST_AGENT=")
	if got := r.read(filepath.Join(r.proj, "src", "a.go")); got != "package a\n" {
		t.Errorf("src/a.go = %q: the reserved edit went through", got)
	}
	if fr := reqs[1].LastFunctionResponse(); !strings.Contains(fr, reservedReason) {
		t.Errorf("the refused write_file does not carry the reason: %s", fr)
	}
	inbox := strings.Join(r.inbox("bob"), "\n")
	if !strings.Contains(inbox, "PLUGIN-MCP-BODY") || !strings.Contains(inbox, "from: alice") {
		t.Errorf("bob's inbox lacks the message alice sent through st's MCP server:\n%s", inbox)
	}
	if errs := hookErrors(stderr); len(errs) > 0 {
		t.Errorf("Gemini CLI reported hook errors:\n%s", strings.Join(errs, "\n"))
	}
	r.setEnv("ST_AGENT=alice")
	if ev := r.st("events"); !strings.Contains(ev, "advice=reserved") {
		t.Errorf("st events does not show the session's refusal:\n%s", ev)
	}
	r.setEnv("ST_AGENT=")

	r.extensions("", "uninstall", "st")
	if after := r.read(settings); after != before {
		t.Errorf("settings.json after uninstall:\n%s\nbefore install:\n%s", after, before)
	}
	if _, err := os.Stat(filepath.Join(r.home, ".gemini", "extensions", "st")); err == nil {
		t.Errorf("the extension's folder outlived its uninstall")
	}
}

// inbox is the text of every message in agent's inbox.
func (r *rig) inbox(agent string) []string {
	files, _ := filepath.Glob(filepath.Join(r.root, agent, "inbox", "*.md"))
	var out []string
	for _, f := range files {
		out = append(out, r.read(f))
	}
	return out
}
