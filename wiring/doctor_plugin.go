package wiring

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/jsonobj"
)

// PluginWiring is the st plugin (or Gemini CLI extension) found enabled
// for one client, and where that is recorded.
type PluginWiring struct {
	Family string
	Where  string // the file that enables it
}

// FindPlugins reports the clients whose st plugin is enabled: Claude
// Code's enabledPlugins["st@smalltalk"] in any of claudeFiles, Codex's
// [plugins."st@smalltalk"] in $CODEX_HOME/config.toml, Gemini CLI's
// extension folder extensions/st. An unreadable file counts as none:
// the settings checks report it.
func FindPlugins(claudeFiles []string, codexHome, geminiDir string) []PluginWiring {
	var out []PluginWiring
	for _, path := range claudeFiles {
		if claudeEnables(path) {
			out = append(out, PluginWiring{hooks.ClaudeCode, path})
			break
		}
	}
	if codexHome != "" {
		if path := filepath.Join(codexHome, "config.toml"); codexEnables(path) {
			out = append(out, PluginWiring{hooks.Codex, path})
		}
	}
	if geminiDir != "" {
		manifest := filepath.Join(geminiDir, "extensions", PluginName, "gemini-extension.json")
		if _, err := os.Stat(manifest); err == nil {
			out = append(out, PluginWiring{hooks.Gemini, manifest})
		}
	}
	return out
}

func claudeEnables(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	doc, err := jsonobj.ParseObject(data)
	if err != nil {
		return false
	}
	v, _ := doc.Get("enabledPlugins")
	enabled, ok := v.(*jsonobj.Object)
	if !ok {
		return false
	}
	on, _ := enabled.Get(PluginID)
	return on == true
}

func codexEnables(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var doc struct {
		Plugins map[string]struct {
			Enabled *bool `toml:"enabled"`
		} `toml:"plugins"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return false
	}
	p, ok := doc.Plugins[PluginID]
	return ok && (p.Enabled == nil || *p.Enabled)
}

// PluginFor is the plugin wiring of family among found.
func PluginFor(found []PluginWiring, family string) (PluginWiring, bool) {
	i := slices.IndexFunc(found, func(p PluginWiring) bool { return p.Family == family })
	if i < 0 {
		return PluginWiring{}, false
	}
	return found[i], true
}

// reportWays says, for each client, which way st is wired: the plugin,
// settings-file hooks, both or neither. Both fails for every event the
// two would each run st for: the client runs both handlers, so st would
// announce each message and inject now.md twice.
func reportWays(found []PluginWiring, settingsEvents map[string][]string, fail func(string, ...any), w io.Writer) {
	for _, c := range Clients() {
		family := c.Runtime.Family
		p, plugin := PluginFor(found, family)
		events := settingsEvents[family]
		switch {
		case plugin && len(events) == 0:
			fmt.Fprintf(w, "# %s: st is wired by its plugin (%s)\n", c.Name, p.Where)
		case !plugin && len(events) > 0:
			fmt.Fprintf(w, "# %s: st is wired by settings-file hooks\n", c.Name)
		case plugin:
			fmt.Fprintf(w, "# %s: st is wired by its plugin (%s) and by settings-file hooks\n", c.Name, p.Where)
			var twice []string
			for _, e := range c.InstallSet(true) {
				if slices.Contains(events, e.Event) && !slices.Contains(twice, e.Event) {
					twice = append(twice, e.Event)
				}
			}
			if len(twice) > 0 {
				fail("%s: st runs twice for %s, once from the plugin and once from the settings file: "+
					"keep one way (`st hooks uninstall --for %s` for the settings file's, or remove the plugin)",
					c.Name, strings.Join(twice, ", "), family)
			}
		}
	}
}
