package wiring

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// CodexConfig is what st reads from a Codex config.toml: the trust state
// Codex keeps for each hook ([hooks.state."<key>"]), the command handlers
// of its own [[hooks.<Event>]] / [[hooks.<Event>.hooks]] tables (what
// `st hooks path --for codex` prints), and whether it has st's MCP table.
// It is read with a conforming TOML parser, so dotted keys, inline tables
// and strings that look like headers mean what they mean to Codex, and a
// file Codex cannot parse is an error with its line and column.
type CodexConfig struct {
	Path     string
	Exists   bool
	States   map[string]HookState
	Handlers []TOMLHandler
	HasMCPST bool // mcp_servers.st is defined
}

// TOMLHandler is one command handler of a config.toml [hooks] table,
// with its place (Codex keys its trust by it) and its definition.
type TOMLHandler struct {
	Handler
	Group, Index int
	group        *jsonobj.Object
	handler      *jsonobj.Object
}

// HookState is one [hooks.state."<key>"] entry.
type HookState struct {
	Enabled     *bool
	TrustedHash string
}

// TOMLError is a config.toml that does not parse: Codex refuses to start
// with it.
type TOMLError struct {
	Path      string
	Line, Col int
	Msg       string
	Table     string // the dotted key the error is about, if any
}

func (e *TOMLError) Error() string {
	if e.Table != "" {
		return fmt.Sprintf("%s:%d:%d: %s (%s)", e.Path, e.Line, e.Col, e.Msg, e.Table)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// ReadCodexConfig reads a config.toml; a missing file is empty. A file
// that is not valid TOML gives a *TOMLError (and the config read as
// empty, but Exists).
func ReadCodexConfig(path string) (*CodexConfig, error) {
	c := &CodexConfig{Path: path, States: map[string]HookState{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	c.Exists = true
	if err := c.parse(string(data)); err != nil {
		return c, err
	}
	return c, nil
}

// parse fills c from text, or returns a *TOMLError.
func (c *CodexConfig) parse(text string) error {
	var doc map[string]any
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		return tomlError(c.Path, err)
	}
	if servers, ok := doc["mcp_servers"].(map[string]any); ok {
		_, c.HasMCPST = servers["st"]
	}
	byEvent, _ := doc["hooks"].(map[string]any)
	if states, ok := byEvent["state"].(map[string]any); ok {
		for key, v := range states {
			if m, ok := v.(map[string]any); ok {
				c.States[key] = hookState(m)
			}
		}
	}
	events := make([]string, 0, len(byEvent))
	for event := range byEvent {
		events = append(events, event)
	}
	sort.Strings(events)
	for _, event := range events {
		if event == "state" {
			continue
		}
		for gi, g := range tables(byEvent[event]) {
			for hi, h := range tables(g["hooks"]) {
				cmd, ok := h["command"].(string)
				if !ok || h["type"] != nil && h["type"] != "command" {
					continue
				}
				c.Handlers = append(c.Handlers, TOMLHandler{Handler: Handler{Event: event, Command: cmd},
					Group: gi, Index: hi, group: tomlObject(g), handler: tomlObject(h)})
			}
		}
	}
	return nil
}

// tables is an array of tables, written as [[…]] headers or inline.
func tables(v any) []map[string]any {
	switch v := v.(type) {
	case []map[string]any:
		return v
	case []any:
		out := make([]map[string]any, len(v))
		for i, e := range v {
			out[i], _ = e.(map[string]any)
		}
		return out
	}
	return nil
}

func hookState(m map[string]any) HookState {
	var st HookState
	st.TrustedHash, _ = m["trusted_hash"].(string)
	if b, ok := m["enabled"].(bool); ok {
		st.Enabled = &b
	}
	return st
}

// tomlObject is a decoded TOML table as the JSON object CodexHookHash
// reads (only the scalar keys it looks at matter).
func tomlObject(m map[string]any) *jsonobj.Object {
	o := jsonobj.New()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := m[k].(type) {
		case string, bool, int64, float64:
			o.Set(k, v)
		}
	}
	return o
}

// tomlError turns the parser's error into a TOMLError with its position.
func tomlError(path string, err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return &TOMLError{Path: path, Line: line, Col: col, Msg: strings.TrimPrefix(de.Error(), "toml: "), Table: strings.Join(de.Key(), ".")}
	}
	return &TOMLError{Path: path, Line: 1, Col: 1, Msg: err.Error()}
}

// Handlers lists the plain handlers (event and command).
func (c *CodexConfig) handlers() []Handler {
	out := make([]Handler, len(c.Handlers))
	for i, h := range c.Handlers {
		out[i] = h.Handler
	}
	return out
}
