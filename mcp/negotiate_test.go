package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/mcp/front"
)

// discoverProbe is the first line Claude Code 2.1.328 sends: a
// server/discover in the modern protocol (2026-07-28).
const discoverProbe = `{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.328"},"io.modelcontextprotocol/clientCapabilities":{}}}}`

func initializeLine(version string) string {
	return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
}

// initResult is the part of initialize's answer the tests read.
type initResult struct {
	Result struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
	} `json:"result"`
}

const channelCapabilities = `{"experimental":{"claude/channel":{}},"tools":{"listChanged":true}}`

// A channel needs a revision in which the server may notify unasked:
// Claude Code skips the channel of a connection that negotiated the
// modern protocol. In channel mode st refuses the modern probe, naming
// the older revisions, and answers the client's initialize with the
// newest revision both speak; a client of an older revision keeps it.
func TestChannelNegotiatesHandshakeRevision(t *testing.T) {
	tests := []struct {
		name    string
		probe   bool   // send Claude Code's server/discover probe first
		offered string // initialize's protocolVersion
		want    string
	}{
		{"claude code: probe then 2025-11-25", true, "2025-11-25", "2025-11-25"},
		{"modern offered in initialize", false, "2026-07-28", "2025-11-25"},
		{"older client", false, "2024-11-05", "2024-11-05"},
		{"older client after probe", true, "2025-03-26", "2025-03-26"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			mkdirs(t, root, "alice/inbox", "alice/archive")
			msg := filepath.Join(root, "alice", "inbox", "1714826789012-abcdef.md")
			if err := os.WriteFile(msg, []byte("---\nfrom: bob\n---\nCHANNEL-BODY\n"), 0o666); err != nil {
				t.Fatal(err)
			}
			c, _ := runPipe(t, Config{Root: root, Agent: "alice", Channel: true})
			if tt.probe {
				c.send(t, discoverProbe)
				got := c.next(t, `"server-discover-probe-1"`, 5*time.Second)
				if !strings.Contains(got, `"error":{"code":-32022`) || strings.Contains(got, "2026-07-28\",\"2025") ||
					!strings.Contains(got, `"supported":["2025-11-25","2025-06-18","2025-03-26","2024-11-05"]`) {
					t.Fatalf("the modern probe was not refused with the older revisions: %.300s", got)
				}
			}
			c.send(t, initializeLine(tt.offered))
			// Nothing is pushed before the handshake's answer.
			line := c.next(t, `"jsonrpc"`, 5*time.Second)
			if strings.Contains(line, front.ChannelMethod) {
				t.Fatalf("a channel frame came before initialize's answer: %s", line)
			}
			var res initResult
			if err := json.Unmarshal([]byte(line), &res); err != nil {
				t.Fatalf("initialize's answer %q: %v", line, err)
			}
			if res.Result.ProtocolVersion != tt.want {
				t.Errorf("offered %s, st answered %q, want %s", tt.offered, res.Result.ProtocolVersion, tt.want)
			}
			if string(res.Result.Capabilities) != channelCapabilities {
				t.Errorf("capabilities %s, want %s", res.Result.Capabilities, channelCapabilities)
			}
			c.send(t, initializedLine)
			if got := c.next(t, front.ChannelMethod, 5*time.Second); !strings.Contains(got, "CHANNEL-BODY") {
				t.Errorf("frame %s lacks the message", got)
			}
		})
	}
}
