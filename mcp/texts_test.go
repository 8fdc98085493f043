package mcp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// upstreamMarkers are phrases of the Node st's tool texts (ticket names,
// its grammar labels, its internal jargon) that have no place in ours:
// our titles and descriptions are written in our own words.
var upstreamMarkers = []string{
	"LAYOUT-", "brief-", "coord ", "coord_", "case-4", "case 0", "case 2", "Throws ",
	"Equivalent to", "v1 ", "the eval", "restart-continuity", "lossless-restart",
	"back-compat", "upstream", "new Date()", "toISOString",
	"IS the send", "IS the publish", "Absent-able", "Lazy-creates",
	"Channel-mode-only", "in-context-state", "valid-grammar",
}

// listedTool is what tools/list returns of one tool.
type listedTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// schemaNode is the part of a JSON schema the checks walk.
type schemaNode struct {
	Description string                 `json:"description"`
	Properties  map[string]*schemaNode `json:"properties"`
	Items       *schemaNode            `json:"items"`
}

// listTools starts a channel-mode server (every tool) and returns its
// tools/list answer.
func listTools(t *testing.T) []listedTool {
	t.Helper()
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	c, _ := runPipe(t, Config{Root: root, Agent: "alice", Channel: true})
	c.send(t, initLine, initializedLine, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var reply struct {
		Result struct {
			Tools []listedTool `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(c.next(t, `"id":2`, 5*time.Second)), &reply); err != nil {
		t.Fatal(err)
	}
	return reply.Result.Tools
}

// Every tool a model sees explains itself: a title, a description long
// enough to say what it does, returns and refuses, a description on
// every argument and result field, and none of the Node st's wording.
func TestToolTexts(t *testing.T) {
	tools := listTools(t)
	if len(tools) != 19 {
		t.Fatalf("tools/list gave %d tools, want 19", len(tools))
	}
	for _, tl := range tools {
		if tl.Title == "" || len(tl.Title) > 60 {
			t.Errorf("%s: title %q: want 1 to 60 characters", tl.Name, tl.Title)
		}
		if n := len(strings.Fields(tl.Description)); n < 25 {
			t.Errorf("%s: description of %d words, want at least 25: %q", tl.Name, n, tl.Description)
		}
		if !strings.Contains(tl.Description, "`st ") {
			t.Errorf("%s: description names no CLI verb (`st ...`): %q", tl.Name, tl.Description)
		}
		texts := map[string]string{"title": tl.Title, "description": tl.Description}
		for kind, raw := range map[string]json.RawMessage{"input": tl.InputSchema, "output": tl.OutputSchema} {
			var s schemaNode
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatalf("%s: %s schema: %v", tl.Name, kind, err)
			}
			walkSchema(&s, kind, func(path, desc string) {
				if strings.TrimSpace(desc) == "" {
					t.Errorf("%s: %s property %s has no description", tl.Name, kind, path)
				}
				texts[kind+" "+path] = desc
			})
		}
		for where, text := range texts {
			for _, m := range upstreamMarkers {
				if strings.Contains(text, m) {
					t.Errorf("%s: %s contains %q: %q", tl.Name, where, m, text)
				}
			}
		}
	}
}

// walkSchema calls f with the path and description of every property
// under s, nested objects and array items included.
func walkSchema(s *schemaNode, path string, f func(path, desc string)) {
	if s == nil {
		return
	}
	for name, p := range s.Properties {
		f(path+"."+name, p.Description)
		walkSchema(p, path+"."+name, f)
	}
	walkSchema(s.Items, path+"[]", f)
}
