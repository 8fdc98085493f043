package marketplace

import (
	"path"
	"strings"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/wiring"
)

// Gemini CLI installs an extension from its folder: gemini-extension.json
// (its MCP servers, settings and context file), hooks/hooks.json and
// skills/ beside it. A setting is asked for at install and reaches the
// hooks as the variable it names, over the environment's value of that
// name; ST_PLUGIN_AGENT is not ST_AGENT, so an ST_AGENT Gemini CLI
// starts with still wins (layout.PluginOptionVars).

// GeminiContextFile is the extension's context file, which Gemini CLI
// loads into every session: the skill's always-loaded part.
const GeminiContextFile = "ST.md"

func geminiFiles() ([]File, error) {
	setting := func(name, description, envVar string) any {
		return obj().Set("name", name).Set("description", description).Set("envVar", envVar)
	}
	server := mcpServer(false).
		Set("env", obj().Set("ST_PLUGIN_AGENT", "${ST_PLUGIN_AGENT:-}").Set("ST_PLUGIN_ROOT", "${ST_PLUGIN_ROOT:-}"))
	manifest := obj().
		Set("name", wiring.PluginName).
		Set("version", Version).
		Set("description", Description).
		Set("contextFileName", GeminiContextFile).
		Set("mcpServers", obj().Set("st", server)).
		Set("settings", []any{
			setting("Agent name", "Who this session is in the store, e.g. alice (ST_AGENT wins over it; empty: the hooks stay silent)", "ST_PLUGIN_AGENT"),
			setting("Store folder", "The folder the agents' inboxes live under (ST_ROOT wins over it; empty: ~/.local/state/smalltalk)", "ST_PLUGIN_ROOT"),
		})
	files, err := jsonFiles(
		path.Join(GeminiDir, "gemini-extension.json"), manifest,
		path.Join(GeminiDir, "hooks/hooks.json"), hooksOf(hooks.Gemini),
	)
	if err != nil {
		return nil, err
	}
	summary, err := skillFS.ReadFile("skill/SKILL.md")
	if err != nil {
		return nil, err
	}
	files = append(files, File{Path: path.Join(GeminiDir, GeminiContextFile), Data: alwaysLoaded(summary)})
	skill, err := skillFiles(GeminiDir)
	return append(files, skill...), err
}

// alwaysLoaded is the skill without its frontmatter: what a Gemini CLI
// session is given whole, where Claude Code and Codex load it when the
// skill's description fits.
func alwaysLoaded(skill []byte) []byte {
	s := string(skill)
	if rest, ok := strings.CutPrefix(s, "---\n"); ok {
		if _, body, ok := strings.Cut(rest, "\n---\n"); ok {
			s = strings.TrimLeft(body, "\n")
		}
	}
	return []byte(s)
}
