package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// §8 case 55: exactly the 13 tools, 14 with --channel; plus our three
// reservation tools, search and ack.
func TestMCPToolList(t *testing.T) {
	root := t.TempDir()
	plain := []string{"st_agents", "st_context_append", "st_context_read", "st_context_write", "st_msg_ack", "st_msg_archive", "st_msg_ls",
		"st_msg_read", "st_msg_search", "st_msg_send", "st_msg_thread", "st_release", "st_reservations", "st_reserve",
		"st_resource_add", "st_resource_ls", "st_resource_read", "st_resource_remove"}
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	if got := mcpToolNames(t, p); !slices.Equal(got, plain) {
		t.Errorf("plain tools %v\nwant %v", got, plain)
	}
	channel := append(slices.Clone(plain), "st_msg_reply")
	slices.Sort(channel)
	p = startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"), "--channel")
	if got := mcpToolNames(t, p); !slices.Equal(got, channel) {
		t.Errorf("channel tools %v\nwant %v", got, channel)
	}
	if res, err := p.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "st_members"}); err == nil && !res.IsError {
		t.Errorf("st_members exists")
	}
}

func TestMCPAgents(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "bob")
	mcpWriteFile(t, filepath.Join(root, "bob", "status"), "busy\n")
	mcpWriteFile(t, filepath.Join(root, "bob", "name"), "  Bob B \n")
	mcpWriteFile(t, filepath.Join(root, "carol", "inbox", "1714826789012-abcdef.md"), "x")
	mcpWriteFile(t, filepath.Join(root, "carol", "inbox", "notes.md"), "x")
	mcpWriteFile(t, filepath.Join(root, ".hidden", "inbox", "x"), "x")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	sum, out := p.ok("st_agents", nil)
	if want := `{"members":[{"identity":"alice","status":"offline","name":null},{"identity":"bob","status":"busy","name":"Bob B"},{"identity":"carol","status":"offline","name":null}]}`; out != want || sum != "3 agents" {
		t.Errorf("agents: %q %s", sum, out)
	}
	if sum, out = p.ok("st_agents", map[string]any{"status": "busy"}); sum != "1 agent" || !strings.Contains(out, `"identity":"bob"`) {
		t.Errorf("agents busy: %q %s", sum, out)
	}
	_, out = p.ok("st_agents", map[string]any{"enrich": true})
	re := regexp.MustCompile(`^\{"members":\[\{"identity":"alice","status":"offline","name":null,"lastActivity":null,"inbox":0\},` +
		`\{"identity":"bob","status":"busy","name":"Bob B","lastActivity":[0-9.]+,"inbox":0\},` +
		`\{"identity":"carol","status":"offline","name":null,"lastActivity":[0-9.]+,"inbox":1\}\]\}$`)
	if !re.MatchString(out) {
		t.Errorf("agents enrich: %s", out)
	}
	if res := p.call("st_agents", map[string]any{"status": "bogus"}); !res.IsError {
		t.Errorf("status bogus accepted")
	}
}

func TestMCPResources(t *testing.T) {
	root := t.TempDir()
	mcpMkAgent(t, root, "bob")
	mcpWriteFile(t, filepath.Join(root, "bob", "resources", "1714826789012-abcdef.md"), "---\nurl: \"pty://x\"\n---\n")
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"))
	sum, out := p.ok("st_resource_add", map[string]any{"url": "https://x.y/z", "title": "the PR", "tags": []string{"a,b", " c ", ""}, "relation": "owns", "body": "desc"})
	var r struct{ Filename, Identity string }
	json.Unmarshal([]byte(out), &r)
	if out != `{"filename":"`+r.Filename+`","identity":"alice"}` || sum != "added: alice/"+r.Filename {
		t.Errorf("add: %q %s", sum, out)
	}
	if got := mcpReadFile(t, filepath.Join(root, "alice", "resources", r.Filename)); got != "---\nurl: \"https://x.y/z\"\ntitle: \"the PR\"\ntags: [a, b, c]\nrelation: owns\n---\ndesc" {
		t.Errorf("resource file %q", got)
	}
	sum, out = p.ok("st_resource_ls", nil)
	if want := `{"identity":"alice","resources":[{"filename":"` + r.Filename + `","url":"https://x.y/z","title":"the PR","tags":["a","b","c"],"relation":"owns"}]}`; out != want || sum != "1 resource" {
		t.Errorf("ls: %q %s", sum, out)
	}
	sum, out = p.ok("st_resource_read", map[string]any{"filename": r.Filename})
	if want := `{"identity":"alice","filename":"` + r.Filename + `","url":"https://x.y/z","title":"the PR","tags":["a","b","c"],"relation":"owns","body":"desc"}`; out != want || sum != "alice/"+r.Filename+": https://x.y/z" {
		t.Errorf("read: %q %s", sum, out)
	}
	if _, out = p.ok("st_resource_read", map[string]any{"identity": "bob", "filename": "1714826789012-abcdef.md"}); out != `{"identity":"bob","filename":"1714826789012-abcdef.md","url":"pty://x","title":null,"tags":[],"relation":null,"body":""}` {
		t.Errorf("read bob: %s", out)
	}
	if sum, out = p.ok("st_resource_ls", map[string]any{"identity": "ghost"}); out != `{"identity":"ghost","resources":[]}` || sum != "0 resources" {
		t.Errorf("ls ghost: %q %s", sum, out)
	}
	if txt, _ := p.fails("st_resource_read", map[string]any{"identity": "ghost", "filename": r.Filename}); !strings.HasPrefix(txt, "IDENTITY_NOT_HOSTED: ") {
		t.Errorf("read ghost: %q", txt)
	}
	sum, out = p.ok("st_resource_remove", map[string]any{"filename": r.Filename})
	if out != `{"identity":"alice","filename":"`+r.Filename+`","removed":true}` || sum != "removed: alice/"+r.Filename {
		t.Errorf("remove: %q %s", sum, out)
	}
	txt, meta := p.fails("st_resource_remove", map[string]any{"filename": r.Filename})
	if txt != "RESOURCE_NOT_FOUND: resource not found: alice/resources/"+r.Filename ||
		meta != `{"code":"RESOURCE_NOT_FOUND","message":"resource not found: alice/resources/`+r.Filename+`","details":{"identity":"alice","filename":"`+r.Filename+`"}}` {
		t.Errorf("remove again: %q %s", txt, meta)
	}
	txt, meta = p.fails("st_resource_add", map[string]any{"url": "nope"})
	if txt != `INVALID_RESOURCE_URL: invalid resource url: "nope" (must contain a scheme, e.g. https://, pty://)` || !strings.HasSuffix(meta, `"details":{"value":"nope"}}`) {
		t.Errorf("add nope: %q %s", txt, meta)
	}
	for _, name := range []string{"../bob/resources/1714826789012-abcdef.md", "..", "notes.md", "/etc/passwd"} {
		for _, tool := range []string{"st_resource_read", "st_resource_remove"} {
			if txt, _ := p.fails(tool, map[string]any{"filename": name}); txt != "INVALID_FILENAME: invalid filename: "+name {
				t.Errorf("%s %q: %q", tool, name, txt)
			}
		}
		for _, tool := range []string{"st_resource_read", "st_resource_ls"} {
			if name == "notes.md" {
				continue // a valid agent name
			}
			if txt, _ := p.fails(tool, map[string]any{"identity": name, "filename": "1714826789012-abcdef.md"}); !strings.HasPrefix(txt, "INVALID_IDENTITY: ") {
				t.Errorf("%s identity %q: %q", tool, name, txt)
			}
		}
	}
}
