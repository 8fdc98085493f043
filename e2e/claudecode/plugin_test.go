package claudecode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// skillDescription is the start of the st skill's description.
const skillDescription = "Working beside other agents through st."

// checkout is this repository: the marketplace the tests add.
func checkout(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// claudeCLI runs `claude args…` in the project and fails the test on a
// non-zero exit.
func (p *project) claudeCLI(args ...string) string {
	p.t.Helper()
	cmd := exec.Command(p.claudeBin, args...)
	cmd.Dir, cmd.Env = p.dir, p.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// `claude plugin validate` accepts the marketplace and the plugin.
func TestPluginValidates(t *testing.T) {
	p := newProjectWith(t, nil, func(*project) {})
	for _, dir := range []string{checkout(t), filepath.Join(checkout(t), "plugins", "claude-code")} {
		if out := p.claudeCLI("plugin", "validate", dir); !strings.Contains(out, "Validation passed") {
			t.Errorf("validate %s:\n%s", dir, out)
		}
	}
}

// The st plugin from this checkout's marketplace, installed in a fresh
// home with the agent as its option and no ST_AGENT in the environment:
// the first request carries now.md and the unread message once, a Write
// under bob's reservation is refused with its reason, the model's call
// of st's MCP tool sends as the agent, the event log records the
// session, and uninstalling leaves the user's settings as they were.
func TestPluginSession(t *testing.T) {
	var p *project
	var sendTool string
	p = newProjectWith(t, func(n int, r *Request) Reply {
		switch {
		case r.HasToolResult("toolu_send"):
			return Text("plugin done")
		case r.HasToolResult("toolu_held"):
			return ToolUse("toolu_send", sendTool, map[string]any{"to": "bob", "body": "PLUGIN-MCP-BODY"})
		}
		for _, name := range r.Tools {
			if strings.HasSuffix(name, "__st_msg_send") {
				sendTool = name
			}
		}
		return ToolUse("toolu_held", "Write", map[string]any{"file_path": filepath.Join(p.dir, "src", "a.go"), "content": "package overwritten\n"})
	}, func(*project) {})
	if out, err := exec.Command("git", "init", "-q", p.dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	held := filepath.Join(p.dir, "src", "a.go")
	os.MkdirAll(filepath.Dir(held), 0o755)
	os.MkdirAll(filepath.Join(p.root, p.agent, "context"), 0o755)
	if err := os.WriteFile(held, []byte("package src\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.root, p.agent, "context", "now.md"), []byte("PLUGIN-NOW-MD: parser half done\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.stAs("bob", "message", "send", p.agent, "-m", "welcome", "--subject", "PLUGIN-SUBJ")
	p.stAs("bob", "reserve", "src/", "--reason", "RESERVE-REASON: moving the parser")

	userSettings := filepath.Join(p.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(userSettings), 0o755)
	const mine = "{\n  \"theme\": \"dark\"\n}\n"
	if err := os.WriteFile(userSettings, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	// ToolSearch would defer st's tools past the first request.
	p.extra = append(p.extra, "ST_AGENT=", "ENABLE_TOOL_SEARCH=false")
	p.claudeCLI("plugin", "marketplace", "add", checkout(t))
	p.claudeCLI("plugin", "install", "st@smalltalk", "--config", "agent="+p.agent)

	r := p.claude("edit and tell bob", "--permission-mode", "acceptEdits", "--allowedTools", "mcp__plugin_st_st")
	p.checkClean(r)
	reqs := p.mock.Messages()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	if sendTool == "" {
		t.Fatalf("the first request offers no st_msg_send; tools: %v", reqs[0].Tools)
	}
	for _, want := range []string{"PLUGIN-NOW-MD", "Subject: PLUGIN-SUBJ"} {
		if n := strings.Count(reqs[0].Text(), want); n != 1 {
			t.Errorf("%q reached the first request %d times, want once", want, n)
		}
	}
	// The skill is offered by its description, its body left for when
	// it is used.
	if !strings.Contains(reqs[0].Text(), skillDescription) {
		t.Errorf("the first request does not offer the st skill")
	}
	if doctor := p.st("hooks", "doctor"); !strings.Contains(doctor, "# Claude Code: st is wired by its plugin") {
		t.Errorf("doctor does not see the plugin:\n%s", doctor)
	}
	i := firstWith(reqs, func(r *Request) bool { return r.HasToolResult("toolu_held") })
	if i < 0 || !strings.Contains(reqs[i].LastUser(), "RESERVE-REASON: moving the parser") {
		t.Errorf("the refused Write's reason did not reach the model")
	}
	if data, _ := os.ReadFile(held); string(data) != "package src\n" {
		t.Errorf("bob's reserved file was changed: %q", data)
	}
	sent, _ := filepath.Glob(filepath.Join(p.root, "bob", "inbox", "*.md"))
	found := false
	for _, f := range sent {
		data, _ := os.ReadFile(f)
		found = found || strings.Contains(string(data), "PLUGIN-MCP-BODY") && strings.Contains(string(data), "from: "+p.agent)
	}
	if !found {
		t.Errorf("bob's inbox lacks the message the model sent as %s through st's MCP tool (%s)", p.agent, sendTool)
	}
	if len(find(p.events(), "SessionStart")) == 0 {
		t.Errorf("the event log records no SessionStart")
	}

	p.claudeCLI("plugin", "uninstall", "st@smalltalk")
	p.claudeCLI("plugin", "marketplace", "remove", "smalltalk")
	// Claude Code 2.1.328 leaves enabledPlugins, extraKnownMarketplaces
	// and pluginConfigs behind as empty objects: nothing of st's stays,
	// and the user's own keys are as they were.
	data, _ := os.ReadFile(userSettings)
	var after, before map[string]any
	if err := json.Unmarshal(data, &after); err != nil {
		t.Fatalf("settings.json after uninstall: %v\n%s", err, data)
	}
	json.Unmarshal([]byte(mine), &before)
	for k, v := range after {
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			delete(after, k)
		}
	}
	if !reflect.DeepEqual(after, before) || strings.Contains(string(data), "smalltalk") {
		t.Errorf("settings.json after uninstall:\n%s\nbefore:\n%s", data, mine)
	}
}

// The plugin without st installed: every hook prints its one line and
// exits 0, so the session runs as if st were not there and Claude Code
// reports no hook failure.
func TestPluginWithoutST(t *testing.T) {
	p := newProjectWith(t, func(n int, r *Request) Reply { return Text("plain answer") }, func(*project) {})
	p.claudeCLI("plugin", "marketplace", "add", checkout(t))
	p.claudeCLI("plugin", "install", "st@smalltalk", "--config", "agent="+p.agent)
	p.extra = append(p.extra, "PATH="+filepath.Dir(p.claudeBin)+":/usr/local/bin:/usr/bin:/bin")
	if _, err := exec.LookPath("st"); err == nil {
		if path, _ := exec.LookPath("st"); strings.HasPrefix(path, "/usr/") || strings.HasPrefix(path, "/bin/") {
			t.Skipf("an st is installed at %s", path)
		}
	}
	r := p.claude("hello")
	p.checkClean(r)
	if r.result == nil || r.result["result"] != "plain answer" {
		t.Fatalf("the run ended with %v", r.result)
	}
	if !strings.Contains(r.debug, "st is not on PATH") {
		t.Errorf("the debug log does not carry the hooks' line about the missing st")
	}
}

// The plugin's st server is a channel: an interactive Claude Code that
// loads it as one (a development channel until the marketplace is on
// the approved list) gets a message bob sends as a <channel> block in a
// turn of its own, once.
func TestPluginChannelPush(t *testing.T) {
	tmuxBinary(t)
	const body, subject = "PLUGIN-CHANNEL-BODY from bob", "PLUGIN-CHANNEL-SUBJ"
	p := newProjectWith(t, func(n int, r *Request) Reply {
		if strings.Contains(r.LastUser(), body) {
			return Text("CHANNEL-SEEN")
		}
		return Text("ok")
	}, func(*project) {})
	p.claudeCLI("plugin", "marketplace", "add", checkout(t))
	p.claudeCLI("plugin", "install", "st@smalltalk", "--config", "agent="+p.agent)
	p.extra = append(p.extra, "ST_AGENT=")
	p.seedConfig()
	u := p.startTUI("--dangerously-load-development-channels", "plugin:st@smalltalk")
	u.waitFor("the development-channels warning", 30*time.Second, func() bool {
		return strings.Contains(u.screen(), "I am using this for local development")
	})
	u.keys("Enter")
	u.waitFor(`"Channel notifications registered" in the debug log`, 30*time.Second, func() bool {
		if skipped := regexp.MustCompile(`Channel notifications skipped: .*`).FindString(u.debug()); skipped != "" {
			t.Fatalf("Claude Code refused the plugin's channel: %s", skipped)
		}
		return strings.Contains(u.debug(), `Channel notifications registered`)
	})
	if out, err := p.stCmd("bob", "message", "send", p.agent, "-m", body, "--subject", subject).CombinedOutput(); err != nil {
		t.Fatalf("st message send: %v\n%s", err, out)
	}
	u.waitFor("the reply to the channel message on screen", 40*time.Second, func() bool {
		return strings.Contains(u.screen(), "CHANNEL-SEEN")
	})
	reqs := p.mock.Messages()
	i := firstWith(reqs, func(r *Request) bool { return strings.Contains(r.LastUser(), body) })
	if i < 0 || !strings.Contains(reqs[i].LastUser(), "<channel source=") || !strings.Contains(reqs[i].LastUser(), `from="bob"`) {
		t.Fatalf("no request carries the pushed message as a channel block")
	}
	if n := countIn(reqs, body); n != 1 {
		t.Errorf("%d requests bring the pushed message, want 1", n)
	}
}
