package wiring

import (
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// The want hashes are what Codex 0.169.0 reported as currentHash in
// `codex app-server` hooks/list for these very entries.
func TestCodexHookHash(t *testing.T) {
	for _, tc := range []struct {
		event, stBin, want string
		entry              Entry
	}{
		{"SessionStart", "/tmp/cx1/bin/st", "sha256:8558af15ae772936b86abc486e01d6aef36d94dc4fbdee8ea0ba583301bfad3c", CodexEntries[0]},
		{"Stop", "/tmp/cx1/bin/st", "sha256:693741eb2433d1259750b0bf89069e3dda1676c5da32569e2199fb79b723ab0e", CodexEntries[1]},
		{"PreToolUse", "/tmp/cx1/bin/st", "sha256:64c1bd5a4a30d290ecae3265595a2b0830baabbcc770845b6508cc8a98843c37", CodexEntries[2]}, // with its matcher
	} {
		g := tc.entry.Group(tc.stBin)
		hv, _ := g.Get("hooks")
		h := hv.([]any)[0].(*jsonobj.Object)
		if got := CodexHookHash(tc.event, g, h); got != tc.want {
			t.Errorf("%s: hash %s, want %s", tc.event, got, tc.want)
		}
	}
}

func TestCodexTrustStatus(t *testing.T) {
	doc := jsonobj.New()
	Install(doc, CodexEntries[:2], "/opt/st")
	hash := func(i int) string {
		return CodexTrust("/h/hooks.json", doc, "/opt/st", nil)[i].Hash
	}
	no := false
	for _, tc := range []struct {
		name   string
		states map[string]HookState
		want   [2]string
	}{
		{"none", nil, [2]string{TrustUntrusted, TrustUntrusted}},
		{"trusted", map[string]HookState{
			"/h/hooks.json:session_start:0:0": {TrustedHash: hash(0)},
			"/h/hooks.json:stop:0:0":          {TrustedHash: "sha256:old"},
		}, [2]string{TrustTrusted, TrustModified}},
		{"disabled", map[string]HookState{
			"/h/hooks.json:session_start:0:0": {TrustedHash: hash(0), Enabled: &no},
		}, [2]string{TrustDisabled, TrustUntrusted}},
	} {
		got := CodexTrust("/h/hooks.json", doc, "/opt/st", tc.states)
		if len(got) != 2 || got[0].Status != tc.want[0] || got[1].Status != tc.want[1] {
			t.Errorf("%s: %+v, want %v", tc.name, got, tc.want)
		}
	}
}

// The config shapes Codex accepts (and some it refuses), read as a
// conforming TOML parser reads them: the line reader st had before got 7
// of these wrong.
func TestReadCodexConfig(t *testing.T) {
	const key = "/h/hooks.json:session_start:0:0"
	hook := "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"/opt/st hook codex-session-start\"\n"
	for _, tc := range []struct {
		name, text string
		hash       string // the trusted_hash read for key
		enabled    string // "", "true" or "false"
		handlers   int    // command handlers read
		mcp        bool   // [mcp_servers.st] is there
		errLine    int    // > 0: a parse error on this line
	}{
		{name: "header table", text: "[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:aa\"\n", hash: "sha256:aa"},
		{name: "literal strings", text: "[hooks.state.'" + key + "']\ntrusted_hash = 'sha256:aa'\nenabled = false\n", hash: "sha256:aa", enabled: "false"},
		{name: "inline table", text: "[hooks.state]\n\"" + key + "\" = { trusted_hash = \"sha256:aa\", enabled = true }\n", hash: "sha256:aa", enabled: "true"},
		{name: "dotted keys under [hooks]", text: "[hooks]\nstate.\"" + key + "\".trusted_hash = \"sha256:aa\"\n", hash: "sha256:aa"},
		{name: "dotted keys at the top", text: "hooks.state.\"" + key + "\".trusted_hash = \"sha256:aa\"\n", hash: "sha256:aa"},
		{name: "spaces around dots", text: "[ hooks . state . \"" + key + "\" ]\ntrusted_hash = \"sha256:aa\" # trusted\n", hash: "sha256:aa"},
		{name: "escapes in the key", text: "[hooks.state.\"/h/hooks\\u002Ejson:session_start:0:0\"]\ntrusted_hash = \"sha256:aa\"\n", hash: "sha256:aa"},
		{name: "header inside a multi-line string", text: "notes = \"\"\"\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:aa\"\n\"\"\"\n"},
		{name: "hooks inside a literal multi-line string", text: "notes = '''\n" + hook + "'''\n"},
		{name: "hook tables", text: hook + "timeout = 5\n\n[mcp_servers.st]\ncommand = \"/opt/st\"\n", handlers: 1, mcp: true},
		{name: "hook as inline array", text: "[hooks]\nSessionStart = [{ hooks = [{ type = \"command\", command = \"/opt/st hook codex-session-start\" }] }]\n", handlers: 1},
		{name: "mcp by dotted key", text: "mcp_servers.st.command = \"/opt/st\"\n", mcp: true},
		{name: "duplicate mcp table", text: "[mcp_servers.st]\ncommand = \"a\"\n\n[mcp_servers.st]\ncommand = \"a\"\n", errLine: 4},
		{name: "invalid value", text: "model = \"x\"\n[hooks.state.\"" + key + "\"]\ntrusted_hash = sha256\n", errLine: 3},
		{name: "unterminated string", text: "[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:aa\n", errLine: 2},
	} {
		c := &CodexConfig{Path: "config.toml", States: map[string]HookState{}}
		err := c.parse(tc.text)
		var te *TOMLError
		if tc.errLine > 0 {
			if !errors.As(err, &te) || te.Line != tc.errLine || te.Col < 1 {
				t.Errorf("%s: error %v, want one on line %d with a column", tc.name, err, tc.errLine)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		st := c.States[key]
		enabled := ""
		if st.Enabled != nil {
			enabled = fmt.Sprint(*st.Enabled)
		}
		if st.TrustedHash != tc.hash || enabled != tc.enabled || len(c.Handlers) != tc.handlers || c.HasMCPST != tc.mcp {
			t.Errorf("%s: state %q enabled %q, %d handlers, mcp %v; want %q %q %d %v", tc.name,
				st.TrustedHash, enabled, len(c.Handlers), c.HasMCPST, tc.hash, tc.enabled, tc.handlers, tc.mcp)
			continue
		}
		if tc.handlers > 0 && c.Handlers[0].Handler != (Handler{Event: "SessionStart", Command: "/opt/st hook codex-session-start"}) {
			t.Errorf("%s: handler %+v", tc.name, c.Handlers[0])
		}
	}
}

// FuzzCodexConfig: the config.toml reader never panics, and a state
// table written as Codex writes it reads back as written.
func FuzzCodexConfig(f *testing.F) {
	f.Add("[hooks.state]\n", "/h/hooks.json:stop:0:0", "sha256:aa")
	f.Add("[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = 'st hook codex-stop'\n", `a"b\c`, "x")
	f.Add("[hooks.state.\"k\"]\ntrusted_hash = \"\\u00e9\"\n", "k:session_start:1:2", "")
	f.Fuzz(func(t *testing.T, text, key, hash string) {
		c := &CodexConfig{States: map[string]HookState{}}
		c.parse(text)
		if !utf8.ValidString(key) || !utf8.ValidString(hash) {
			return
		}
		c = &CodexConfig{States: map[string]HookState{}}
		if err := c.parse(fmt.Sprintf("[hooks.state.%s]\ntrusted_hash = %s\n", tomlQuote(key), tomlQuote(hash))); err != nil {
			t.Fatalf("key %q hash %q: %v", key, hash, err)
		}
		if got := c.States[key].TrustedHash; got != hash {
			t.Errorf("key %q hash %q read back as %q (states %v)", key, hash, got, c.States)
		}
	})
}
