package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With the [mcp_servers.st] table `st init --for codex --print` prints, Codex
// lists st's tools, and a scripted tool call delivers a message from the
// agent named in the session's environment (env_vars passes it on).
func TestMCPSendDeliversAsTheSessionAgent(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		if n == 0 {
			return mcpCall("st", "st_msg_send", map[string]any{"to": "bob", "body": "hello from codex", "subject": "mcp"})
		}
		return say("Sent it.")
	})
	r.agent("alice")
	r.agent("bob")
	fragment := r.st("init", "--for", "codex", "--print")
	r.writeConfig("\n" + fragment)
	logs := r.codex("tell bob hello", "--strict-config")

	reqs := r.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2:\n%s", len(reqs), logs)
	}
	tools := strings.Join(reqs[0].ToolNames(), " ")
	for _, want := range []string{"mcp__st/st_msg_send", "mcp__st/st_msg_ls", "mcp__st/st_msg_read", "mcp__st/st_context_read"} {
		if !strings.Contains(tools, want) {
			t.Errorf("Codex did not offer %s; it offered %s", want, tools)
		}
	}
	out, _ := reqs[1].FunctionOutput("call_0_0")
	if !strings.Contains(out, `"identity":"bob"`) {
		t.Errorf("tool output %q, want the delivery", out)
	}
	inbox := r.inbox("bob")
	if len(inbox) != 1 {
		t.Fatalf("bob's inbox holds %v, want one message", inbox)
	}
	msg := r.read(filepath.Join(r.root, "bob", "inbox", inbox[0]))
	if !strings.Contains(msg, "from: alice") || !strings.Contains(msg, "hello from codex") {
		t.Errorf("delivered message:\n%s", msg)
	}
	// Nothing went to the default root as an anonymous agent.
	if _, err := os.Stat(filepath.Join(r.home, ".local", "state", "smalltalk")); err == nil {
		t.Errorf("st-mcp wrote under $HOME: the root did not reach it")
	}
}

// Codex with approval_policy = "never" and its default workspace-write
// sandbox refuses an MCP tool unless the tool says it is read-only
// ("MCP tool call requires approval, but approval policy is never");
// st_msg_ls carries readOnlyHint, so it runs.
func TestMCPReadToolRunsUnderWorkspaceSandbox(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		if n == 0 {
			return mcpCall("st", "st_msg_ls", map[string]any{})
		}
		return say("Listed.")
	})
	r.agent("alice")
	r.writeConfig("\n" + r.st("init", "--for", "codex", "--print"))
	r.codex("list my inbox", "-s", "workspace-write")
	reqs := r.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	out, _ := reqs[1].FunctionOutput("call_0_0")
	if strings.Contains(out, "approval") || strings.Contains(out, "unsupported call") || !strings.Contains(out, `"identity":"alice"`) {
		t.Errorf("st_msg_ls output %q", out)
	}
}

// Without env_vars, Codex starts st-mcp with a clean environment, so it
// neither finds the root nor knows the agent: the message lands under
// $HOME, from an anonymous sender. This is why the fragment has them.
func TestMCPWithoutEnvVarsLosesRootAndAgent(t *testing.T) {
	t.Parallel()
	r := newRig(t, func(n int, req apiRequest) reply {
		if n == 0 {
			return mcpCall("st", "st_msg_send", map[string]any{"to": "bob", "body": "hello"})
		}
		return say("Sent.")
	})
	r.agent("bob")
	fragment := strings.Replace(r.st("init", "--for", "codex", "--print"), "env_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n", "", 1)
	r.writeConfig("\n" + fragment)
	r.codex("tell bob hello")
	if got := r.inbox("bob"); len(got) != 0 {
		t.Errorf("without env_vars the message still reached $ST_ROOT (%v): the fragment's env_vars would be moot", got)
	}
	out, _ := r.api.Requests()[1].FunctionOutput("call_0_0")
	i := strings.Index(out, `"filename":"`)
	if i < 0 {
		t.Fatalf("st_msg_send answered %q", out)
	}
	name, _, _ := strings.Cut(out[i+len(`"filename":"`):], `"`)
	stray := filepath.Join(r.home, ".local", "state", "smalltalk", "bob", "inbox", name)
	msg := r.read(stray)
	if !strings.Contains(msg, "from: anon-") {
		t.Errorf("the stray message under $HOME is not from an anonymous agent:\n%s", msg)
	}
}
