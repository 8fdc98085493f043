package mcp

import (
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sterr"
)

func TestErrorResultPayload(t *testing.T) {
	for _, c := range []struct {
		err        error
		text, meta string
	}{
		{sterr.NotFound("alice", "1714826789012-abcdef.md"),
			"MESSAGE_NOT_FOUND: not found in inbox or archive: 1714826789012-abcdef.md",
			`{"code":"MESSAGE_NOT_FOUND","message":"not found in inbox or archive: 1714826789012-abcdef.md","details":{"identity":"alice","filename":"1714826789012-abcdef.md"}}`},
		{sterr.New(sterr.SyncFailed, "rsync push failed: r/ -> t", map[string]any{"stderr": "x", "stage": "push", "exitCode": 23}),
			"SYNC_FAILED: rsync push failed: r/ -> t",
			`{"code":"SYNC_FAILED","message":"rsync push failed: r/ -> t","details":{"stage":"push","exitCode":23,"stderr":"x"}}`},
		{sterr.New(sterr.PeersConfigInvalid, "m", map[string]any{"reason": "r", "path": "p", "zz": 1, "aa": 2}),
			"PEERS_CONFIG_INVALID: m",
			`{"code":"PEERS_CONFIG_INVALID","message":"m","details":{"path":"p","reason":"r","aa":2,"zz":1}}`},
		{sterr.Msg("--why is required and cannot be empty"),
			"INTERNAL_ERROR: --why is required and cannot be empty",
			`{"code":"INTERNAL_ERROR","message":"--why is required and cannot be empty"}`},
		{errors.New("disk <full>"), "INTERNAL_ERROR: disk <full>", `{"code":"INTERNAL_ERROR","message":"disk <full>"}`},
	} {
		res := errorResult(c.err)
		if !res.IsError || len(res.Content) != 1 || res.StructuredContent != nil {
			t.Errorf("%v: result %+v", c.err, res)
		}
		meta, _ := jsstr.Marshal(res.Meta["st/error"])
		if string(meta) != c.meta {
			t.Errorf("%v: meta %s, want %s", c.err, meta, c.meta)
		}
		if got := mcpText(res); got != c.text {
			t.Errorf("%v: text %q, want %q", c.err, got, c.text)
		}
	}
}

func TestMessageFrame(t *testing.T) {
	s := &server{cfg: Config{Agent: "alice"}}
	for _, c := range []struct {
		name, text, want string
	}{
		{"1714826789012-abcdef.md", "---\nfrom: bob\nsubject: ping\n---\nhello alice\n",
			`{"content":"Subject: ping\n\nhello alice\n","meta":{"from":"bob","messageFilename":"1714826789012-abcdef.md","threadFilename":"1714826789012-abcdef.md","identity":"alice"}}`},
		{"1714826789012-abcdef.md", "---\r\nfrom: bob\r\n---\r\nx", // CRLF: untyped
			`{"content":"---\r\nfrom: bob\r\n---\r\nx","meta":{"from":"unknown","messageFilename":"1714826789012-abcdef.md","threadFilename":"1714826789012-abcdef.md","identity":"alice"}}`},
		{"1714826789012-abcdef.md", "---\nfrom: bob\nin-reply-to: 1714826789000-aaaaaa.md\n---\n<b>&</b>",
			`{"content":"<b>&</b>","meta":{"from":"bob","messageFilename":"1714826789012-abcdef.md","threadFilename":"1714826789000-aaaaaa.md","identity":"alice"}}`},
		{"Hello World.md", "x\u2028y",
			"{\"content\":\"[outside .md — non-canonical filename: Hello World.md]\\n\\nx\u2028y\",\"meta\":{\"from\":\"outside\",\"messageFilename\":\"Hello World.md\",\"threadFilename\":\"Hello World.md\",\"identity\":\"alice\"}}"},
	} {
		got, _ := jsstr.Marshal(s.messageFrame(c.name, c.text))
		if string(got) != c.want {
			t.Errorf("%s %q:\ngot  %s\nwant %s", c.name, c.text, got, c.want)
		}
	}
}

func mcpText(res *mcp.CallToolResult) string {
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}
