package hooks

import (
	"fmt"
	"strings"
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
	Install(doc, CodexEntries, "/opt/st")
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

func TestReadCodexConfig(t *testing.T) {
	c := &CodexConfig{States: map[string]HookState{}}
	c.parse(`model = "x"
# a comment
[hooks.state]

[hooks.state."/h/hooks.json:session_start:0:0"]
trusted_hash = "sha256:aa"

[hooks.state."/h/hooks.json:stop:0:0"]
enabled = false
trusted_hash = 'sha256:bb'

[hooks.state.inline]
x = 1

[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "command"
command = "/opt/st hook codex-session-start"
timeout = 5

[mcp_servers.st]
command = "/opt/st"
`)
	if got := c.States["/h/hooks.json:session_start:0:0"].TrustedHash; got != "sha256:aa" {
		t.Errorf("session_start hash %q", got)
	}
	stop := c.States["/h/hooks.json:stop:0:0"]
	if stop.TrustedHash != "sha256:bb" || stop.Enabled == nil || *stop.Enabled {
		t.Errorf("stop state %+v", stop)
	}
	if len(c.Handlers) != 1 || c.Handlers[0] != (Handler{Event: "SessionStart", Command: "/opt/st hook codex-session-start"}) {
		t.Errorf("handlers %+v", c.Handlers)
	}
	c = &CodexConfig{States: map[string]HookState{}}
	c.parse("[hooks.state]\n\"/h/hooks.json:stop:0:0\" = { trusted_hash = \"sha256:cc\", enabled = true }\n")
	if got := c.States["/h/hooks.json:stop:0:0"]; got.TrustedHash != "sha256:cc" || got.Enabled == nil || !*got.Enabled {
		t.Errorf("inline state %+v", got)
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
		if !utf8.ValidString(key) || !utf8.ValidString(hash) || strings.ContainsAny(key+hash, "\n\r") {
			return
		}
		c = &CodexConfig{States: map[string]HookState{}}
		c.parse(fmt.Sprintf("[hooks.state.%s]\ntrusted_hash = %s\n", tomlQuote(key), tomlQuote(hash)))
		if got := c.States[key].TrustedHash; got != hash {
			t.Errorf("key %q hash %q read back as %q (states %v)", key, hash, got, c.States)
		}
	})
}
