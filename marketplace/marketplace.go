// Package marketplace builds the files that make this repository a
// plugin marketplace: a Claude Code plugin and a Codex plugin, each
// listed in its client's marketplace file, and a Gemini CLI extension.
// Every hook they carry comes from the client's row in wiring.Clients,
// the table `st hooks install` reads, so the two ways of wiring st run
// the same hooks; a test regenerates the files and compares them with
// the ones committed.
package marketplace

//go:generate go run ./gen ..

import (
	"embed"
	"path"

	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/wiring"
)

// Version is the plugins' version: the clients show it and Codex keys
// its plugin cache by it.
const Version = "0.1.0"

// Description is the one line each client shows for the plugin.
const Description = "Durable state for coding agents in plain folders: messages between agents, " +
	"restart context (now.md), reservations of shared files and an event log, through st's hooks and MCP server"

const repository = "https://github.com/smalltalk-go/st"

// The plugin folders, relative to the repository's top level.
const (
	ClaudeDir = "plugins/claude-code"
	CodexDir  = "plugins/codex"
	GeminiDir = "plugins/gemini"
)

// File is one generated file: its path relative to the repository's top
// level (slash-separated) and its bytes.
type File struct {
	Path string
	Data []byte
}

//go:embed skill
var skillFS embed.FS

// Files returns every file of the marketplace, in a fixed order.
func Files() ([]File, error) {
	var out []File
	for _, part := range []func() ([]File, error){claudeFiles, codexFiles, geminiFiles} {
		fs, err := part()
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// jsonFile is v indented, with a final newline.
func jsonFile(p string, v any) (File, error) {
	data, err := jsonobj.MarshalIndent(v)
	if err != nil {
		return File{}, err
	}
	return File{Path: p, Data: append(data, '\n')}, nil
}

// jsonFiles builds several JSON files, stopping at the first error.
func jsonFiles(pairs ...any) ([]File, error) {
	var out []File
	for i := 0; i < len(pairs); i += 2 {
		f, err := jsonFile(pairs[i].(string), pairs[i+1])
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// skillFiles are the skill's files under dir/skills/st.
func skillFiles(dir string) ([]File, error) {
	var out []File
	for _, name := range []string{"SKILL.md", "details.md"} {
		data, err := skillFS.ReadFile("skill/" + name)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Path: path.Join(dir, "skills", wiring.PluginName, name), Data: data})
	}
	return out, nil
}

// hooksOf is the plugin hooks document of family's full install set.
func hooksOf(family string) *jsonobj.Object {
	c, _ := wiring.ClientFor(family)
	return wiring.PluginHooks(c.InstallSet(true))
}

func author() *jsonobj.Object { return obj().Set("name", "smalltalk-go") }

// pluginEntry is a marketplace's entry for the st plugin at source.
func pluginEntry(source any) *jsonobj.Object {
	return obj().Set("name", wiring.PluginName).Set("source", source).Set("description", Description)
}

// mcpServer is a plugin's MCP server: st-mcp found on PATH, installed
// with st, started directly rather than through `st mcp` (which would be
// two programs to start before the first answer).
func mcpServer(channel bool) *jsonobj.Object {
	s := wiring.DirectMCPServer(wiring.MCPBinary, channel)
	return obj().Set("command", s.Command).Set("args", s.JSONArgs())
}

// obj is a new JSON object that keeps its keys in the order set.
func obj() *jsonobj.Object { return jsonobj.New() }

// pluginManifest is what Claude Code's and Codex's plugin manifests
// share: the plugin's name, version and where it comes from.
func pluginManifest() *jsonobj.Object {
	return obj().
		Set("name", wiring.PluginName).
		Set("version", Version).
		Set("description", Description).
		Set("author", author()).
		Set("homepage", repository).
		Set("repository", repository).
		Set("license", "MIT")
}
