package wiring

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/smalltalk-go/st/hooks"
)

// Client is one client st wires, described once: where its settings
// files are and what shape they have, which of its events run which st
// hook, the tools it edits files with and where their path is (its
// hooks.Client row, which the runtime reads), the answers it takes and
// their limits, and the step it needs before it runs a hook. Install,
// uninstall, the doctor, `st hooks path` and `st init` read the row; a
// new client is a new row, its entries and a recorded payload set.
type Client struct {
	Runtime hooks.Client
	Name    string // as its users call it

	// Its config folder: $HomeVar when set (HomeVarIsHome: then
	// $HomeVar/HomeDir), else $HOME/HomeDir.
	HomeVar       string
	HomeVarIsHome bool
	HomeDir       string

	// Scopes maps a scope to its settings file: "~/" is the config
	// folder, anything else is relative to the project.
	Scopes       map[string]string
	ScopeOrder   []string
	DefaultScope string
	// Strict: a hooks-only file whose root takes "description" and
	// "hooks" alone (Codex's hooks.json); else a settings file whose
	// other keys st keeps as they are.
	Strict bool

	Entries    []Entry // `st hooks install`
	AllEntries []Entry // `st hooks install --all`; nil: as Entries
	// TimeoutUnit is what the client counts a handler's timeout in:
	// "s" or "ms". Entry.Timeout is written in it.
	TimeoutUnit string

	// Outputs says, for the docs and the doctor, the answer forms the
	// client reads and their limits.
	Outputs string
	// Trust is what the user does before the client runs st's hooks;
	// "" when nothing.
	Trust string
	// MCP is the file and key `st init --for <family>` writes st's MCP
	// server into.
	MCP string
}

// GeminiEntries are the Gemini CLI hooks `st hooks install --for gemini`
// wires. Its timeouts are milliseconds. AfterTool, PreCompress and
// SessionEnd run the Claude Code hooks of the same meaning: the payloads
// match (e2e/gemini/testdata/payloads).
var GeminiEntries = []Entry{
	{Event: "SessionStart", Hook: hooks.GeminiSessionStart, Name: "st-" + hooks.GeminiSessionStart, Timeout: 5000},
	{Event: "BeforeTool", Hook: hooks.GeminiBeforeTool, Name: "st-" + hooks.GeminiBeforeTool, Matcher: GeminiBeforeToolMatcher, Timeout: 5000},
	{Event: "AfterTool", Hook: hooks.PostToolUse, Name: "st-" + hooks.PostToolUse, Timeout: 5000},
	{Event: "Notification", Hook: hooks.GeminiNotification, Name: "st-" + hooks.GeminiNotification, Timeout: 10000},
	{Event: "AfterAgent", Hook: hooks.GeminiAfterAgent, Name: "st-" + hooks.GeminiAfterAgent, Timeout: 5000},
	{Event: "PreCompress", Hook: hooks.PreCompact, Name: "st-" + hooks.PreCompact, Timeout: 10000},
	{Event: "SessionEnd", Hook: hooks.SessionEnd, Name: "st-" + hooks.SessionEnd, Timeout: 5000},
}

// GeminiBeforeToolMatcher is the tools gemini-before-tool looks at: the
// file editors (hooks.GeminiEditTools) and the shell (a regular
// expression, as Gemini CLI reads tool matchers). A constant, so that the
// entries are data the binary carries rather than values built at every
// start (TestClientRows checks it covers the tools).
const GeminiBeforeToolMatcher = "write_file|replace|" + hooks.GeminiShellTool

// Clients are the clients st wires, one row each, built on each call:
// only install, the doctor and `st hooks path` read them, so the table
// and its maps are not built at every start.
func Clients() []Client {
	return []Client{
		{
			Runtime: mustRuntime(hooks.ClaudeCode), Name: "Claude Code",
			HomeVar: "CLAUDE_CONFIG_DIR", HomeDir: ".claude",
			Scopes:       map[string]string{"user": "~/settings.json", "project": ".claude/settings.json", "local": ".claude/settings.local.json"},
			ScopeOrder:   []string{"user", "project", "local"},
			DefaultScope: "local",
			Entries:      ClaudeEntries, AllEntries: ClaudeAllEntries, TimeoutUnit: "s",
			Outputs: "hookSpecificOutput{hookEventName, additionalContext | permissionDecision}, systemMessage; " +
				"a string of 10,000 characters or more is moved to a file (budget 9,000)",
			MCP: ".mcp.json mcpServers.st (the project folder)",
		},
		{
			Runtime: mustRuntime(hooks.Codex), Name: "Codex",
			HomeVar: "CODEX_HOME", HomeDir: ".codex",
			Scopes:       map[string]string{"user": "~/hooks.json", "project": ".codex/hooks.json"},
			ScopeOrder:   []string{"user", "project"},
			DefaultScope: "user", Strict: true,
			Entries: CodexEntries, TimeoutUnit: "s",
			Outputs: "closed schemas: SessionStart hookSpecificOutput.additionalContext, Stop decision/reason, " +
				"PreToolUse permissionDecision; additionalContext is cut past about 2,500 tokens (budget 8,000 bytes)",
			Trust: "review and trust the hooks in Codex (/hooks), recorded in config.toml",
			MCP:   "$CODEX_HOME/config.toml [mcp_servers.st]",
		},
		{
			Runtime: mustRuntime(hooks.Gemini), Name: "Gemini CLI",
			HomeVar: "GEMINI_CLI_HOME", HomeVarIsHome: true, HomeDir: ".gemini",
			Scopes:       map[string]string{"user": "~/settings.json", "project": ".gemini/settings.json"},
			ScopeOrder:   []string{"user", "project"},
			DefaultScope: "user",
			Entries:      GeminiEntries, TimeoutUnit: "ms",
			Outputs: "one JSON object or nothing on stdout (other text becomes a system message); " +
				"SessionStart hookSpecificOutput.additionalContext, BeforeTool decision/reason (the reason is the tool's error), " +
				"AfterAgent decision/reason (a retry turn with the reason as its prompt); budget 8,000 bytes",
			Trust: "the folder must be trusted (~/.gemini/trustedFolders.json, the trust dialog, --skip-trust or " +
				"GEMINI_CLI_TRUST_WORKSPACE=true): an untrusted folder loads no project settings, and a headless run in one stops; " +
				"hooksConfig.enabled must not be false",
			MCP: "~/.gemini/settings.json mcpServers.st",
		},
	}
}

func mustRuntime(family string) hooks.Client {
	c, ok := hooks.ClientFor(family)
	if !ok {
		panic("wiring: no hooks.Client row for " + family)
	}
	return c
}

// ClientFor returns family's row; ok is false for a family st does not
// wire through settings files (pi, git).
func ClientFor(family string) (c Client, ok bool) {
	clients := Clients()
	i := slices.IndexFunc(clients, func(c Client) bool { return c.Runtime.Family == family })
	if i < 0 {
		return Client{}, false
	}
	return clients[i], true
}

// ClientFamilies lists the rows' families, in table order.
func ClientFamilies() []string {
	var out []string
	for _, c := range Clients() {
		out = append(out, c.Runtime.Family)
	}
	return out
}

// ConfigDir is the client's config folder, given the environment and
// the home folder.
func (c Client) ConfigDir(getenv func(string) string, home string) string {
	if v := getenv(c.HomeVar); v != "" {
		if c.HomeVarIsHome {
			return filepath.Join(v, c.HomeDir)
		}
		return v
	}
	return filepath.Join(home, c.HomeDir)
}

// ScopeFile is the settings file of scope, with configDir for "~/";
// ok is false for a scope the client does not have.
func (c Client) ScopeFile(scope, configDir string) (path string, ok bool) {
	p, ok := c.Scopes[scope]
	if !ok {
		return "", false
	}
	if rest, home := strings.CutPrefix(p, "~/"); home {
		return filepath.Join(configDir, rest), true
	}
	return filepath.FromSlash(p), true
}

// Files are every settings file of the client, in ScopeOrder.
func (c Client) Files(configDir string) []string {
	var out []string
	for _, s := range c.ScopeOrder {
		if p, ok := c.ScopeFile(s, configDir); ok {
			out = append(out, p)
		}
	}
	return out
}

// InstallSet is the entries `st hooks install` wires: all of them with
// all, when the client has a larger set.
func (c Client) InstallSet(all bool) []Entry {
	if all && c.AllEntries != nil {
		return c.AllEntries
	}
	return c.Entries
}

// isGeminiFile reports whether path is a Gemini CLI settings file: a
// settings.json in a .gemini folder, or the user's one in configDir.
func isGeminiFile(path, configDir string) bool {
	if filepath.Base(path) != "settings.json" {
		return false
	}
	return filepath.Base(filepath.Dir(path)) == ".gemini" || configDir != "" && filepath.Clean(path) == filepath.Join(configDir, "settings.json")
}
