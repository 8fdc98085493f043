package wiring

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/hooks"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// Info is what `st hooks path` prints for a family, keys in upstream's
// order (st-compat.md §6.17).
type Info struct {
	Family         string
	HooksDir       string
	StBin          string
	ScriptsPresent bool
	Scripts        []Script
	SettingsTarget string
	Note           string
	Settings       *jsonobj.Object // claude-code, gemini
	ExampleConfig  *string         // codex: the TOML fragment; pi: nil (null)
}

// Script is one hook in Info: the event, the command's binary and its role.
type Script struct {
	Name    string
	Path    *string
	Role    string
	Present bool
}

type familySpec struct {
	scripts []Script
	target  string
	note    string
}

// specFor is family's row of `st hooks path`; the zero row for a family
// st does not know. A switch, not a map, so that nothing is built at
// start-up for the one command that reads it.
func specFor(family string) familySpec {
	switch family {
	case hooks.ClaudeCode:
		return familySpec{
			scripts: []Script{
				{Name: hooks.SessionStart, Role: "SessionStart — run the boot ritual on every session boundary", Present: true},
				{Name: hooks.PreCompact, Role: "PreCompact — flush working state before a compaction", Present: true},
				{Name: hooks.StopFailure, Role: "StopFailure — surface an API-error wedge to the operator", Present: true},
			},
			target: ".claude/settings.local.json (gitignored; create if absent)",
			note:   `Merge the "hooks" block below into .claude/settings.local.json. The hooks run inside st (st hook <event>), so they need neither bash nor jq.`,
		}
	case hooks.Codex:
		return familySpec{
			scripts: []Script{
				{Name: hooks.CodexSessionStart, Role: "session-start — boot ritual", Present: true},
				{Name: hooks.CodexStop, Role: "stop — end-of-turn handling", Present: true},
				{Name: hooks.CodexPreToolUse, Role: "pre-tool-use — refuse an apply_patch or shell write under another agent's reservation", Present: true},
			},
			target: "~/.codex/config.toml",
			note:   "Codex config is TOML, not a single JSON block. Merge the fragment in exampleConfig into ~/.codex/config.toml. Its hooks are the ones `st hooks install --for codex` writes to hooks.json: wire them in one place only (Codex runs both), and trust them in Codex (/hooks). The MCP server's [mcp_servers.st] table is not in it: `st init --for codex` writes and updates that one in place.",
		}
	case hooks.Gemini:
		return familySpec{
			scripts: []Script{
				{Name: hooks.GeminiSessionStart, Role: "SessionStart — now.md, the unread inbox and the fleet brief", Present: true},
				{Name: hooks.GeminiBeforeTool, Role: "BeforeTool — refuse a write_file, replace or shell write under another agent's reservation", Present: true},
				{Name: hooks.PostToolUse, Role: "AfterTool — the event log", Present: true},
				{Name: hooks.GeminiNotification, Role: "Notification — waiting on a human", Present: true},
				{Name: hooks.GeminiAfterAgent, Role: "AfterAgent — messages that arrived, announced once", Present: true},
				{Name: hooks.PreCompact, Role: "PreCompress — make sure now.md holds the current state", Present: true},
				{Name: hooks.SessionEnd, Role: "SessionEnd — the status goes offline", Present: true},
			},
			target: "~/.gemini/settings.json (or the project's .gemini/settings.json)",
			note:   `Merge the "hooks" block below into the settings file (st hooks install --for gemini does it and keeps everything else). Gemini CLI runs hooks only in a trusted folder. st's MCP server goes into the same file: st init --for gemini.`,
		}
	case hooks.Pi:
		return familySpec{
			scripts: []Script{{Name: "smalltalk.ts", Role: "pi extension — registers the st verbs + push notifications"}},
			target:  `~/.pi/agent/extensions/smalltalk.ts (auto-discovered) or a settings.json "extensions" entry`,
			note:    "The pi extension is not bundled with this st; use examples/pi/smalltalk.ts from compoundingtech/smalltalk.",
		}
	}
	return familySpec{}
}

// CodexMCPFragment is the config.toml table that runs st's MCP server
// in Codex. Codex starts MCP servers with a clean environment, so
// env_vars passes on the root and the agent (without them st-mcp would
// write under $HOME as an anonymous agent).
func CodexMCPFragment(server MCPServer) string {
	return "[mcp_servers.st]\n" +
		"command = " + tomlQuote(server.Command) + "\n" +
		"args = " + server.tomlArgs() + "\n" +
		"env_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n"
}

// CodexFragment is the config.toml fragment for Codex: the same hooks
// `st hooks install --for codex` writes to hooks.json, with the same
// absolute command, so the two never differ. Use one of the two for the
// hooks: Codex runs both. It leaves out the [mcp_servers.st] table, which
// `st init --for codex` owns: appended after it, a second copy of the
// table is a duplicate key that stops Codex from starting.
func CodexFragment(stBin string) string {
	var b strings.Builder
	for i, e := range CodexEntries {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[[hooks.%s]]\n", e.Event)
		if e.Matcher != "" {
			fmt.Fprintf(&b, "matcher = %s\n", tomlQuote(e.Matcher))
		}
		fmt.Fprintf(&b, "[[hooks.%s.hooks]]\ntype = \"command\"\ncommand = %s\ntimeout = %d\n",
			e.Event, tomlQuote(e.Command(stBin)), e.Timeout)
	}
	return b.String()
}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// PathInfo describes family's hooks for the st binary at stBin.
func PathInfo(family, stBin string) Info {
	spec := specFor(family)
	info := Info{
		Family:         family,
		HooksDir:       filepath.Dir(stBin),
		StBin:          stBin,
		ScriptsPresent: family != hooks.Pi,
		SettingsTarget: spec.target,
		Note:           spec.note,
	}
	for _, s := range spec.scripts {
		if s.Present {
			p := stBin
			s.Path = &p
		}
		info.Scripts = append(info.Scripts, s)
	}
	switch family {
	case hooks.ClaudeCode, hooks.Gemini:
		doc := jsonobj.New()
		Install(doc, EntriesFor(family), stBin)
		info.Settings = doc
	case hooks.Codex:
		frag := CodexFragment(stBin)
		info.ExampleConfig = &frag
	}
	return info
}

// JSON is the object `st hooks path --json` prints, keys in order.
func (info Info) JSON() *jsonobj.Object {
	o := jsonobj.New()
	o.Set("family", info.Family)
	o.Set("hooksDir", info.HooksDir)
	o.Set("stBin", info.StBin)
	o.Set("scriptsPresent", info.ScriptsPresent)
	var scripts []any
	for _, s := range info.Scripts {
		so := jsonobj.New()
		so.Set("name", s.Name)
		if s.Path != nil {
			so.Set("path", *s.Path)
		} else {
			so.Set("path", nil)
		}
		so.Set("role", s.Role)
		so.Set("present", s.Present)
		scripts = append(scripts, so)
	}
	o.Set("scripts", scripts)
	o.Set("settingsTarget", info.SettingsTarget)
	o.Set("note", info.Note)
	if info.Settings != nil {
		o.Set("settings", info.Settings)
	} else if info.ExampleConfig != nil {
		o.Set("exampleConfig", *info.ExampleConfig)
	} else {
		o.Set("exampleConfig", nil)
	}
	return o
}

// Human is the text form; name is the invoked name.
func (info Info) Human(name string) string {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line("# st " + info.Family + " integration hooks")
	line("")
	line("Hook commands: " + ShellQuote(info.StBin) + " hook <event>")
	for _, s := range info.Scripts {
		mark := ""
		if !s.Present {
			mark = "   [MISSING]"
		}
		line("  " + s.Name + mark + "  — " + s.Role)
	}
	line("st binary (ST_BIN): " + info.StBin)
	if info.ScriptsPresent {
		line("scripts present: yes")
	} else {
		line("scripts present: NO — some scripts missing (see above)")
	}
	line("")
	line("Install into: " + info.SettingsTarget)
	line(info.Note)
	line("")
	switch {
	case info.Settings != nil:
		line("Config to merge:")
		data, _ := jsonobj.MarshalIndent(info.Settings) // built by Install: every value encodes
		line(string(data))
	case info.ExampleConfig != nil:
		line("Config fragment to adapt:")
		b.WriteString(*info.ExampleConfig)
	}
	line("")
	line("(read-only: this printed the config; it changed nothing. Apply it yourself. `" + name + " hooks path --json` for a machine-readable form.)")
	return b.String()
}
