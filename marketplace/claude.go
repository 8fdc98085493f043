package marketplace

import (
	"path"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/wiring"
)

// Claude Code reads the marketplace at .claude-plugin/marketplace.json
// and the plugin's manifest at .claude-plugin/plugin.json of its folder;
// hooks/hooks.json and skills/ there are found by their place.

// The option keys, CLAUDE_PLUGIN_OPTION_AGENT and _ROOT in the hooks'
// environment (layout.PluginOptionVars), ${user_config.agent} and
// ${user_config.root} in the MCP server's.
const (
	optionAgent = "agent"
	optionRoot  = "root"
)

func claudeFiles() ([]File, error) {
	market := obj().
		Set("name", wiring.MarketplaceName).
		Set("owner", author()).
		Set("description", "st's plugin: durable state, messages and reservations for coding agents").
		Set("plugins", []any{pluginEntry("./" + ClaudeDir)})
	files, err := jsonFiles(
		".claude-plugin/marketplace.json", market,
		path.Join(ClaudeDir, ".claude-plugin/plugin.json"), claudeManifest(),
		path.Join(ClaudeDir, "hooks/hooks.json"), hooksOf(hooks.ClaudeCode),
	)
	if err != nil {
		return nil, err
	}
	skill, err := skillFiles(ClaudeDir)
	return append(files, skill...), err
}

func claudeManifest() any {
	option := func(title, description string) any {
		return obj().Set("type", "string").Set("title", title).Set("description", description).Set("default", "")
	}
	options := obj().
		Set(optionAgent, option("Agent name", "Who this session is in the store, e.g. alice; ST_AGENT in Claude Code's environment wins over it. Empty: the hooks stay silent and the MCP server serves a throwaway agent.")).
		Set(optionRoot, option("Store folder", "The folder every agent's inbox, status and now.md live under; ST_ROOT in Claude Code's environment wins over it. Empty: ~/.local/state/smalltalk."))
	server := mcpServer(true).
		Set("env", obj().
			Set("ST_PLUGIN_AGENT", "${user_config."+optionAgent+"}").
			Set("ST_PLUGIN_ROOT", "${user_config."+optionRoot+"}"))
	return pluginManifest().
		Set("userConfig", options).
		Set("mcpServers", obj().Set("st", server)).
		Set("channels", []any{obj().Set("server", "st").Set("displayName", "st messages")})
}
