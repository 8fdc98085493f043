package hooks

import (
	"encoding/json"
	"slices"

	"github.com/smalltalk-go/st/toolcall"
)

// Client is what the hooks runtime needs to know of one client: the
// tools with which it edits files and where their path is, how much
// injected text it takes in one field, and where the hooks that
// announce new messages keep their cursor. Together with wiring.Client
// (its settings files, events and trust step) it is the whole
// description of a client; a new client is a new row in both tables and
// a recorded payload set, not a new code path.
type Client struct {
	Family string

	// Tools says what each tool that may write a file is to toolcall:
	// an editor (its path at PathKeys, the tool_input members naming the
	// file), apply_patch, or a shell.
	// ShellDirKey is the tool_input member naming the folder a shell
	// command runs in, "" when the call's cwd always is.
	PathKeys    []string
	Tools       []Tool
	ShellDirKey string

	// Budget is the default for the text a hook injects (ContextBudget):
	// under the size at which the client moves, truncates or copies it.
	Budget int

	// CursorDir is the folder under the state dir where the hooks that
	// announce arrivals at the end of a turn remember what they
	// announced; "" for a client whose Stop hook keeps that per session
	// (arrivals.go).
	CursorDir string
}

// Tool is one tool of a client that may write a file, and what it is to
// toolcall. Clients keeps them in slices, not maps, so that st builds
// nothing for its table at start-up.
type Tool struct {
	Name string
	Kind toolcall.Kind
}

// Gemini is Gemini CLI's family name.
const Gemini = "gemini"

// Clients are the clients the runtime serves, one row each.
var Clients = []Client{
	{Family: ClaudeCode, PathKeys: []string{"file_path", "notebook_path"}, Budget: DefaultClaudeBudget,
		Tools: []Tool{{"Edit", toolcall.Edit}, {"Write", toolcall.Edit}, {"MultiEdit", toolcall.Edit},
			{"NotebookEdit", toolcall.Edit}, {"Bash", toolcall.Shell}}},
	// Codex 0.169 names its shell tool Bash for hooks, whatever the
	// model called (exec_command, shell).
	{Family: Codex, Budget: DefaultCodexBudget, CursorDir: "st-codex-hooks",
		Tools: []Tool{{"apply_patch", toolcall.Patch}, {"Bash", toolcall.Shell}}},
	// Gemini CLI 0.61.0 edits with write_file and replace, both naming
	// the file in file_path (e2e/gemini); it takes additionalContext
	// whole, but the restart context stays as small as Codex's.
	// Its run_shell_command may name the folder it runs in (dir_path).
	{Family: Gemini, PathKeys: []string{"file_path"}, Budget: DefaultGeminiBudget, CursorDir: "st-gemini-hooks",
		Tools:       []Tool{{"write_file", toolcall.Edit}, {"replace", toolcall.Edit}, {GeminiShellTool, toolcall.Shell}},
		ShellDirKey: "dir_path"},
}

// ClientFor returns family's row; ok is false for an unknown family.
func ClientFor(family string) (c Client, ok bool) {
	i := slices.IndexFunc(Clients, func(c Client) bool { return c.Family == family })
	if i < 0 {
		return Client{}, false
	}
	return Clients[i], true
}

// KindOf is what the client's tool is to toolcall: Other for a tool that
// writes no file.
func (c Client) KindOf(tool string) toolcall.Kind {
	for _, t := range c.Tools {
		if t.Name == tool {
			return t.Kind
		}
	}
	return toolcall.Other
}

// client is ClientFor for a family known to exist.
func client(family string) Client {
	c, _ := ClientFor(family)
	return c
}

// EditPath is the file an edit tool's input names, read at the client's
// PathKeys; "" when none holds a string.
func (c Client) EditPath(toolInput json.RawMessage) string {
	var loose map[string]any
	if json.Unmarshal(toolInput, &loose) != nil {
		return ""
	}
	for _, k := range c.PathKeys {
		if s, ok := loose[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}
