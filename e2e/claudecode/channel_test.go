package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// Channel push against the real client: an interactive Claude Code,
// started with st's server loaded as a development channel in a project
// wired by `st init`, receives a message another process sends with
// `st message send` as a <channel> block in its next model request, with
// no prompt from anyone: the arrival itself starts the turn. The model
// gets it once: the Stop hook that ends the turn does not announce it
// again as an inbox arrival.
func TestChannelPushReachesModel(t *testing.T) {
	tmuxBinary(t)
	const body, subject = "CHANNEL-BODY from bob", "CHANNEL-SUBJ"
	p := newProject(t, func(n int, r *Request) Reply {
		if strings.Contains(r.LastUser(), body) {
			return Text("CHANNEL-SEEN")
		}
		return Text("ok")
	})
	checkChannelMCPConfig(t, p)
	p.seedConfig()
	u := p.startTUI("--dangerously-load-development-channels", "server:st")

	// The development-channel warning asks once; its default answer is
	// "I am using this for local development".
	u.waitFor("the development-channels warning", 30*time.Second, func() bool {
		return strings.Contains(u.screen(), "I am using this for local development")
	})
	u.keys("Enter")
	u.waitFor(`"Channel notifications registered" for st in the debug log`, 30*time.Second, func() bool {
		if skipped := regexp.MustCompile(`MCP server "st": Channel notifications skipped: .*`).FindString(u.debug()); skipped != "" {
			t.Fatalf("Claude Code refused st's channel: %s", skipped)
		}
		return strings.Contains(u.debug(), `MCP server "st": Channel notifications registered`)
	})
	// With the inbox empty, st-mcp's front serves the whole opening, the
	// modern probe included; the SDK server starts with the first message.
	if n := sdkServers(p.root); n != 0 {
		t.Errorf("%d SDK servers run after the opening with an empty inbox, want none", n)
	}

	out, err := p.stCmd("bob", "message", "send", "alice", "-m", body, "--subject", subject).CombinedOutput()
	if err != nil {
		t.Fatalf("st message send: %v\n%s", err, out)
	}
	name := strings.TrimSpace(string(out))
	u.waitFor("a model request carrying the pushed message", 30*time.Second, func() bool {
		return firstWith(p.mock.Messages(), func(r *Request) bool { return strings.Contains(r.LastUser(), body) }) >= 0
	})
	reqs := p.mock.Messages()
	i := firstWith(reqs, func(r *Request) bool { return strings.Contains(r.LastUser(), body) })
	// Claude Code hands the frame to the model as a <channel> block: meta
	// as attributes, content as the text.
	block := `<channel source="st" from="bob" messageFilename="` + name + `" threadFilename="` + name + `" identity="alice">` +
		"\nSubject: " + subject + "\n\n" + body + "\n"
	if !strings.Contains(reqs[i].LastUser(), block) {
		t.Errorf("request %d lacks the channel block %q; its last user turn:\n%s", i, block, reqs[i].LastUser())
	}
	if n := countIn(reqs, "<channel source=\"st\""); n != 1 {
		t.Errorf("%d requests bring a new channel block, want 1", n)
	}
	if n := sdkServers(p.root); n != 1 {
		t.Errorf("%d SDK servers run after the push, want the one the front handed the session to", n)
	}
	u.waitFor("the reply to the channel message on screen", 20*time.Second, func() bool {
		return strings.Contains(u.screen(), "CHANNEL-SEEN")
	})
	checkOnce(t, p, u)
	if hosts := p.trap.Hosts(); len(hosts) > 0 {
		t.Errorf("claude tried to leave loopback: %v", hosts)
	}
}

// A push that lands while the model is working reaches it once too:
// Claude Code attaches it to the next tool result ("A message arrived
// from st while you were working"), and the Stop that ends the turn
// does not announce it again.
func TestChannelPushMidTurnReachesModelOnce(t *testing.T) {
	tmuxBinary(t)
	const body, subject, prompt = "MIDTURN-CHANNEL-BODY from bob", "MIDTURN-CHANNEL-SUBJ", "WORK-UNTIL-PUSHED"
	var u *tui
	p := newProject(t, func(n int, r *Request) Reply {
		switch {
		case strings.Contains(r.LastUser(), body):
			return Text("CHANNEL-SEEN")
		case strings.Contains(r.LastUser(), prompt) && !r.HasToolResult("toolu_wait"):
			// The tool runs until the client has the push: the push
			// lands mid-turn, whatever the timing.
			wait := "until grep -q 'notifications/claude/channel (' " + shellQuote(u.debugFile) + "; do sleep 0.1; done"
			return ToolUse("toolu_wait", "Bash", map[string]any{"command": "timeout 30 sh -c " + shellQuote(wait), "description": "wait"})
		}
		return Text("ok")
	})
	p.seedConfig()
	u = p.startTUI("--dangerously-load-development-channels", "server:st", "--permission-mode", "default", "--allowedTools", "Bash")
	u.waitFor("the development-channels warning", 30*time.Second, func() bool {
		return strings.Contains(u.screen(), "I am using this for local development")
	})
	u.keys("Enter")
	u.waitFor(`"Channel notifications registered" for st in the debug log`, 30*time.Second, func() bool {
		return strings.Contains(u.debug(), `MCP server "st": Channel notifications registered`)
	})
	u.keys(prompt)
	u.waitFor("the typed prompt on screen", 10*time.Second, func() bool { return strings.Contains(u.screen(), prompt) })
	u.keys("Enter")
	u.waitFor("the turn's first request", 30*time.Second, func() bool {
		return firstWith(p.mock.Messages(), func(r *Request) bool { return strings.Contains(r.LastUser(), prompt) }) >= 0
	})
	if out, err := p.stCmd("bob", "message", "send", "alice", "-m", body, "--subject", subject).CombinedOutput(); err != nil {
		t.Fatalf("st message send: %v\n%s", err, out)
	}
	u.waitFor("the reply to the channel message on screen", 40*time.Second, func() bool {
		return strings.Contains(u.screen(), "CHANNEL-SEEN")
	})
	reqs := p.mock.Messages()
	i := firstWith(reqs, func(r *Request) bool { return strings.Contains(r.LastUser(), body) })
	if i < 0 || !reqs[i].HasToolResult("toolu_wait") {
		t.Errorf("the push did not come with the tool result (request %d): it did not land mid-turn", i)
	}
	// Not the tag: st's instructions, in the first request, quote it.
	if n := countIn(reqs, body); n != 1 {
		t.Errorf("%d requests bring the pushed message, want 1", n)
	}
	checkOnce(t, p, u)
}

// checkChannelMCPConfig checks that the project's .mcp.json, as `st
// init` wrote it, runs st's server, st-mcp (installed next to st), in
// channel mode: the test exercises what users get.
func checkChannelMCPConfig(t *testing.T, p *project) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dir, ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatalf(".mcp.json: %v", err)
	}
	st := cfg.MCPServers["st"]
	if filepath.Base(st.Command) != "st-mcp" || strings.Join(st.Args, " ") != "--channel" {
		t.Fatalf("st init wrote %q %q for st, want st-mcp [--channel]", st.Command, st.Args)
	}
}

// checkOnce waits for st's Stop hook at the end of the channel turn and
// checks that it let the turn end: the model had the message as a
// <channel> block, so an "## st inbox" announcement would only cost a
// second turn to say it again.
func checkOnce(t *testing.T, p *project, u *tui) {
	t.Helper()
	u.waitFor("st's Stop hook after the channel turn", 20*time.Second, func() bool {
		return len(find(p.events(), "Stop")) > 0
	})
	if stop := find(p.events(), "Stop")[0]; stop.Advice != "" {
		t.Errorf("st's Stop hook after the channel turn advised %q, want nothing", stop.Advice)
	}
	if n := countIn(p.mock.Messages(), "## st inbox"); n != 0 {
		t.Errorf("%d requests announce the pushed message again as an inbox arrival, want 0", n)
	}
}

// sdkServers counts the running st-mcp-server processes whose store is
// root (st-mcp becomes one when its front hands the session over).
func sdkServers(root string) int {
	procs, _ := os.ReadDir("/proc")
	n := 0
	for _, proc := range procs {
		comm, err := os.ReadFile(filepath.Join("/proc", proc.Name(), "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "st-mcp-server" {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", proc.Name(), "environ"))
		if err == nil && slices.Contains(strings.Split(string(env), "\x00"), "ST_ROOT="+root) {
			n++
		}
	}
	return n
}
