package main

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

// Every tool carries annotations with every hint explicit, so that a
// client such as Codex with approval_policy=never does not refuse it, and
// exactly the reading tools say readOnlyHint.
func TestMCPToolAnnotations(t *testing.T) {
	root := t.TempDir()
	reading := []string{"st_agents", "st_context_read", "st_msg_ls", "st_msg_read", "st_msg_search", "st_msg_thread", "st_reservations", "st_resource_ls", "st_resource_read"}
	// The writing tools that may remove or overwrite, and those a repeat
	// leaves unchanged.
	destructive := []string{"st_context_write", "st_release", "st_resource_remove"}
	idempotent := []string{"st_context_write", "st_msg_ack", "st_msg_archive", "st_release", "st_resource_remove"}
	p := startMCP(t, root, mcpEnv(root, "ST_AGENT=alice"), "--channel")
	res, err := p.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 19 {
		t.Fatalf("%d tools, want 19", len(res.Tools))
	}
	var readOnly []string
	for _, tl := range res.Tools {
		a := tl.Annotations
		if a == nil {
			t.Errorf("%s has no annotations", tl.Name)
			continue
		}
		if a.Title == "" || a.Title != tl.Title {
			t.Errorf("%s: annotations title %q, want the tool's %q", tl.Name, a.Title, tl.Title)
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint %v, want false (the store is a closed world)", tl.Name, a.OpenWorldHint)
		}
		if a.DestructiveHint == nil {
			t.Errorf("%s: destructiveHint absent (clients read that as true)", tl.Name)
		} else if *a.DestructiveHint != slices.Contains(destructive, tl.Name) {
			t.Errorf("%s: destructiveHint %v", tl.Name, *a.DestructiveHint)
		}
		if a.ReadOnlyHint {
			readOnly = append(readOnly, tl.Name)
			if !a.IdempotentHint {
				t.Errorf("%s: read-only but not idempotent", tl.Name)
			}
		} else if a.IdempotentHint != slices.Contains(idempotent, tl.Name) {
			t.Errorf("%s: idempotentHint %v", tl.Name, a.IdempotentHint)
		}
	}
	slices.Sort(readOnly)
	if !slices.Equal(readOnly, reading) {
		t.Errorf("read-only tools %v\nwant %v", readOnly, reading)
	}
	// On the wire, every hint is spelled out.
	var raw struct {
		Tools []struct {
			Name        string                     `json:"name"`
			Annotations map[string]json.RawMessage `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(p.tap.conn.lastResult(), &raw); err != nil {
		t.Fatal(err)
	}
	for _, tl := range raw.Tools {
		for _, k := range []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			if _, ok := tl.Annotations[k]; !ok {
				t.Errorf("%s: annotations lack %s on the wire", tl.Name, k)
			}
		}
	}
}
