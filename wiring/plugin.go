package wiring

import (
	"strings"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// The st plugins (Claude Code, Codex) and the Gemini CLI extension run
// the same entries as `st hooks install`, with a command that first
// checks st is installed: a plugin can be installed without st, and a
// hook whose command is missing fails every event of every session.

// PluginName is the st plugin's name in every client, and
// MarketplaceName the name of the marketplace this repository is:
// Claude Code and Codex install st@smalltalk, Gemini CLI an extension
// named st.
const (
	PluginName      = "st"
	MarketplaceName = "smalltalk"
)

// PluginID is the plugin as Claude Code and Codex name it in their
// settings (enabledPlugins, [plugins."…"]).
const PluginID = PluginName + "@" + MarketplaceName

// missingST is what a plugin hook prints, once per event, when st is
// not on PATH; stderr, so that no client reads it as an answer.
const missingST = "st plugin: st is not on PATH, so its hooks do nothing; install st (see its README) and start a new session"

// pluginGuard is the start of every plugin hook command, for the sh the
// clients run hook commands with: without st it prints missingST and
// exits 0, which every client takes as "nothing to say".
const pluginGuard = "command -v st >/dev/null 2>&1 || { echo '" + missingST + "' >&2; exit 0; }; exec "

// PluginCommand is the shell command a plugin runs for e: the guard,
// then st from PATH with the entry's event and arguments.
func (e Entry) PluginCommand() string { return pluginGuard + e.Command("st") }

// PluginEvent returns the st hook event a plugin's hook command runs,
// when it is one of ours (PluginCommand's shape).
func PluginEvent(command string) (string, bool) {
	rest, ok := strings.CutPrefix(command, pluginGuard)
	if !ok {
		return "", false
	}
	return OursEvent(rest, "st")
}

// PluginHooks is the hooks.json document of a plugin carrying entries:
// {"hooks": {event: [group]}} with PluginCommand as each command.
func PluginHooks(entries []Entry) *jsonobj.Object {
	byEvent := jsonobj.New()
	for _, e := range entries {
		g := e.Group("st")
		hv, _ := g.Get("hooks")
		hv.([]any)[0].(*jsonobj.Object).Set("command", e.PluginCommand())
		var groups []any
		if v, ok := byEvent.Get(e.Event); ok {
			groups = v.([]any)
		}
		byEvent.Set(e.Event, append(groups, g))
	}
	return jsonobj.New().Set("hooks", byEvent)
}
