package main

import (
	"fmt"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/wiring"
)

// findPlugins are the clients whose st plugin is enabled, read from the
// user's and this project's Claude Code settings, $CODEX_HOME and
// Gemini CLI's extensions.
func (a *app) findPlugins() []wiring.PluginWiring {
	claude, _ := wiring.ClientFor(hooks.ClaudeCode)
	return wiring.FindPlugins(claude.Files(a.claudeHome()), a.codexHome(), a.geminiHome())
}

// pluginNote tells a user installing settings-file hooks for a client
// whose st plugin is already enabled that st would run twice per event.
func (a *app) pluginNote(family string) {
	p, ok := wiring.PluginFor(a.findPlugins(), family)
	if !ok {
		return
	}
	row, _ := wiring.ClientFor(family)
	fmt.Fprintf(a.stdout, "Note: the st plugin is already enabled for %s (%s): it runs these hooks itself, "+
		"so with both st runs twice for each event and `st hooks doctor` fails. Keep one way: "+
		"the plugin, or these hooks for per-project control (then remove the plugin).\n", row.Name, p.Where)
}
