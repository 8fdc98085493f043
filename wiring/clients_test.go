package wiring

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/smalltalk-go/st/hooks"
)

// Every row is whole: its scopes name its default, its entries run st
// hooks that exist, its edit hook's matcher covers the tools it edits
// with, and its timeouts are in its unit.
func TestClientRows(t *testing.T) {
	for _, c := range Clients() {
		t.Run(c.Runtime.Family, func(t *testing.T) {
			if _, ok := c.Scopes[c.DefaultScope]; !ok {
				t.Errorf("default scope %q is not one of its scopes", c.DefaultScope)
			}
			if len(c.ScopeOrder) != len(c.Scopes) {
				t.Errorf("ScopeOrder %v does not list every scope of %v", c.ScopeOrder, c.Scopes)
			}
			for _, e := range append(c.Entries, c.AllEntries...) {
				if !hooks.IsEvent(e.Hook) {
					t.Errorf("%s runs %q, which is no st hook", e.Event, e.Hook)
				}
				if c.TimeoutUnit == "ms" && e.Timeout > 0 && e.Timeout < 1000 {
					t.Errorf("%s: timeout %d ms is too short to be meant", e.Event, e.Timeout)
				}
				if c.TimeoutUnit == "s" && e.Timeout > 3600 {
					t.Errorf("%s: timeout %d s is too long to be meant", e.Event, e.Timeout)
				}
			}
			if rt, ok := hooks.ClientFor(c.Runtime.Family); !ok || rt.Budget != c.Runtime.Budget {
				t.Errorf("no matching hooks.Clients row")
			}
		})
	}
	// Gemini CLI's edit hook covers both its editing tools and its shell.
	i := slices.IndexFunc(GeminiEntries, func(e Entry) bool { return e.Hook == hooks.GeminiBeforeTool })
	if i < 0 {
		t.Fatal("no BeforeTool entry for Gemini CLI")
	}
	tools := append(slices.Clone(hooks.GeminiEditTools), hooks.GeminiShellTool)
	if missing := uncovered(GeminiEntries[i].Matcher, tools); len(missing) > 0 {
		t.Errorf("the BeforeTool matcher leaves out %v", missing)
	}
}

func TestClientFiles(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		family, scope string
		vars          map[string]string
		want          string
	}{
		{hooks.ClaudeCode, "user", nil, "/h/.claude/settings.json"},
		{hooks.ClaudeCode, "user", map[string]string{"CLAUDE_CONFIG_DIR": "/c"}, "/c/settings.json"},
		{hooks.ClaudeCode, "local", nil, ".claude/settings.local.json"},
		{hooks.Codex, "user", map[string]string{"CODEX_HOME": "/x"}, "/x/hooks.json"},
		{hooks.Codex, "project", nil, ".codex/hooks.json"},
		{hooks.Gemini, "user", nil, "/h/.gemini/settings.json"},
		{hooks.Gemini, "user", map[string]string{"GEMINI_CLI_HOME": "/g"}, "/g/.gemini/settings.json"},
		{hooks.Gemini, "project", nil, ".gemini/settings.json"},
		{hooks.Gemini, "local", nil, ""},
		{hooks.Codex, "local", nil, ""},
	}
	for _, c := range cases {
		row, ok := ClientFor(c.family)
		if !ok {
			t.Fatalf("no row for %s", c.family)
		}
		got, ok := row.ScopeFile(c.scope, row.ConfigDir(env(c.vars), "/h"))
		if c.want == "" {
			if ok {
				t.Errorf("%s --scope %s = %s, want none", c.family, c.scope, got)
			}
			continue
		}
		if got != filepath.FromSlash(c.want) {
			t.Errorf("%s --scope %s with %v = %s, want %s", c.family, c.scope, c.vars, got, c.want)
		}
	}
	if !isGeminiFile("/p/.gemini/settings.json", "") || isGeminiFile("/p/.claude/settings.json", "/h/.gemini") ||
		!isGeminiFile("/g/.gemini/settings.json", "/g/.gemini") || !isGeminiFile("/g/conf/settings.json", "/g/conf") {
		t.Error("isGeminiFile misjudges a file")
	}
}

// Both Claude Code sets wire SessionStart the same way: the plain set's
// entry is the whole set's, so an upgrade to --all changes nothing there.
func TestClaudeSetsShareSessionStart(t *testing.T) {
	find := func(entries []Entry) Entry {
		i := slices.IndexFunc(entries, func(e Entry) bool { return e.Event == "SessionStart" })
		if i < 0 {
			t.Fatal("no SessionStart entry")
		}
		return entries[i]
	}
	if plain, all := find(ClaudeEntries), find(ClaudeAllEntries); !reflect.DeepEqual(plain, all) {
		t.Errorf("SessionStart: install wires %+v, install --all %+v", plain, all)
	}
}
