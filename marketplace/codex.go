package marketplace

import (
	"path"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/wiring"
)

// Codex reads a repository's marketplace at .agents/plugins/marketplace.json
// (before Claude Code's, which it also understands) and a plugin's
// manifest at .codex-plugin/plugin.json, whose paths start with ./.
// Codex plugins have no options: the agent comes from the environment
// Codex starts with, which its MCP servers see only through env_vars.

func codexFiles() ([]File, error) {
	source := obj().Set("source", "local").Set("path", "./"+CodexDir)
	entry := pluginEntry(source).
		Set("policy", obj().Set("installation", "AVAILABLE").Set("authentication", "ON_INSTALL")).
		Set("category", "Productivity")
	market := obj().
		Set("name", wiring.MarketplaceName).
		Set("interface", obj().Set("displayName", "st")).
		Set("plugins", []any{entry})
	server := mcpServer(false).
		Set("env_vars", []any{"ST_ROOT", "ST_AGENT"})
	manifest := pluginManifest().
		Set("skills", "./skills/").
		Set("hooks", "./hooks/hooks.json").
		Set("mcpServers", "./.mcp.json")
	files, err := jsonFiles(
		".agents/plugins/marketplace.json", market,
		path.Join(CodexDir, ".codex-plugin/plugin.json"), manifest,
		path.Join(CodexDir, "hooks/hooks.json"), hooksOf(hooks.Codex),
		path.Join(CodexDir, ".mcp.json"), obj().Set("mcpServers", obj().Set("st", server)),
	)
	if err != nil {
		return nil, err
	}
	skill, err := skillFiles(CodexDir)
	return append(files, skill...), err
}
