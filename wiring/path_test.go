package wiring

import (
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// The hooks path fragment appended to the config.toml `st init --for
// codex` wrote (the habit older docs taught) still parses: it does not
// repeat the [mcp_servers.st] table, which Codex would refuse as a
// duplicate key.
func TestCodexFragmentAfterInit(t *testing.T) {
	const stBin = "/opt/bin/st"
	server := DirectMCPServer("/opt/bin/st-mcp", false)
	for _, start := range []string{"", "model = \"gpt-5.5\"\n"} {
		inited, err := SetCodexMCP("config.toml", []byte(start), server)
		if err != nil {
			t.Fatal(err)
		}
		text := string(inited) + "\n" + CodexFragment(stBin)
		var doc map[string]any
		if err := toml.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatalf("init's config.toml with the fragment appended does not parse: %v\n%s", err, text)
		}
		if n := strings.Count(text, "[mcp_servers.st]"); n != 1 {
			t.Errorf("[mcp_servers.st] appears %d times, want once (init's)", n)
		}
		hooks, _ := doc["hooks"].(map[string]any)
		if len(hooks) != len(CodexEntries) {
			t.Errorf("the fragment wires %d events, want %d: %v", len(hooks), len(CodexEntries), hooks)
		}
		if again, err := SetCodexMCP("config.toml", []byte(text), server); err != nil || string(again) != text {
			t.Errorf("init run again changes the file (%v):\n%s", err, again)
		}
	}
}
