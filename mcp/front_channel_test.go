package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/mcp/front"
)

// frontChannel answers lines as st-mcp's front does in channel mode, up
// to the first it hands to the server, and returns its frames and how
// many lines it answered.
func frontChannel(t *testing.T, lines ...string) (out string, answered int) {
	t.Helper()
	h := front.Handover{Channel: true}
	var b bytes.Buffer
	for i, l := range lines {
		handover, err := h.Answer([]byte(l), &b)
		if err != nil {
			t.Fatal(err)
		}
		if handover {
			return b.String(), i
		}
	}
	return b.String(), len(lines)
}

// probeWith is Claude Code's server/discover probe with its params
// replaced.
func probeWith(params string) string {
	return `{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":` + params + `}`
}

// In channel mode the front answers Claude Code's whole opening, its
// server/discover probe included, with the SDK's bytes; a probe it is
// unsure of goes to the SDK with the rest of the session.
func TestChannelFrontAnswersAsTheSDK(t *testing.T) {
	const (
		list = `{"method":"tools/list","jsonrpc":"2.0","id":1}`
		caps = `"io.modelcontextprotocol/clientCapabilities":{}`
		info = `"io.modelcontextprotocol/clientInfo":{"name":"claude-code","version":"2.1.328"}`
	)
	meta := func(version string, rest ...string) string {
		return probeWith(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `"` + strings.Join(append([]string{""}, rest...), ",") + `}}`)
	}
	opening := claudeOpening(t)
	claudeInit := opening[1]
	tests := []struct {
		name     string
		lines    []string
		answered int // lines the front answers before it hands over
	}{
		{"Claude Code's opening", opening, 4},
		{"the probe after initialize", []string{claudeInit, discoverProbe, initializedLine, list}, 4},
		{"a later modern revision", []string{meta("2099-12-31", caps, info), claudeInit}, 2},
		{"no client info", []string{meta(front.ModernProtocol, caps), claudeInit}, 2},
		{"a handshake revision in the probe", []string{meta("2025-11-25", caps, info), claudeInit}, 0},
		{"no capabilities", []string{meta(front.ModernProtocol, info), claudeInit}, 0},
		{"null capabilities", []string{meta(front.ModernProtocol, `"io.modelcontextprotocol/clientCapabilities":null`), claudeInit}, 0},
		{"bad capabilities", []string{meta(front.ModernProtocol, `"io.modelcontextprotocol/clientCapabilities":{"roots":5}`), claudeInit}, 0},
		{"null client info", []string{meta(front.ModernProtocol, caps, `"io.modelcontextprotocol/clientInfo":null`), claudeInit}, 0},
		{"a log level", []string{meta(front.ModernProtocol, caps, `"io.modelcontextprotocol/logLevel":"debug"`), claudeInit}, 0},
		{"a revision to escape", []string{meta("2026-07-28<b>", caps), claudeInit}, 0},
		{"params beyond _meta", []string{probeWith(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` + caps + `},"x":1}`), claudeInit}, 0},
		{"_meta in another case", []string{probeWith(`{"_Meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` + caps + `}}`), claudeInit}, 0},
		{"no params", []string{`{"jsonrpc":"2.0","id":7,"method":"server/discover"}`, claudeInit}, 0},
		{"the probe as a notification", []string{`{"jsonrpc":"2.0","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` + caps + `}}}`, claudeInit}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, answered := frontChannel(t, tt.lines...)
			if answered != tt.answered {
				t.Fatalf("the front answered %d lines, want %d (%q)", answered, tt.answered, got)
			}
			want, _ := sessionIn(t, Config{noFront: true, Channel: true}, false, tt.lines[:answered]...)
			if replies(got) != replies(want) {
				t.Errorf("the front:\n%q\nthe SDK:\n%q", got, want)
			}
		})
	}
}

// Whatever a server/discover's params, the channel front either leaves
// it to the SDK or answers it as the SDK does.
func FuzzChannelDiscover(f *testing.F) {
	for _, p := range []string{
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1","title":"T"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"elicitation":{"form":{}},"extensions":{"a/b":{}}}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{"tools":{}}}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"Roots":{"ListChanged":false}}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, params string) {
		line := probeWith(params)
		if !json.Valid([]byte(line)) {
			return
		}
		got, answered := frontChannel(t, line)
		if answered == 0 {
			return
		}
		if want, _ := sessionIn(t, Config{noFront: true, Channel: true}, false, line); got != want {
			t.Errorf("params %s: the front answered\n%q\nthe SDK\n%q", params, got, want)
		}
	})
}
