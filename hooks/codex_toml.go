package hooks

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// CodexConfig is what st reads from a Codex config.toml: the trust state
// Codex keeps for each hook and the command handlers of its own [hooks]
// tables. st has no TOML library; this reads the shapes Codex writes
// ([hooks.state."<key>"] tables, or inline tables under [hooks.state])
// and the [[hooks.<Event>]] / [[hooks.<Event>.hooks]] arrays of tables
// that `st hooks path --for codex` prints.
type CodexConfig struct {
	Path     string
	Exists   bool
	States   map[string]HookState
	Handlers []Handler
}

// HookState is one [hooks.state."<key>"] entry.
type HookState struct {
	Enabled     *bool
	TrustedHash string
}

// ReadCodexConfig reads a config.toml; a missing file is empty.
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
	c.parse(string(data))
	return c, nil
}

func (c *CodexConfig) parse(text string) {
	table := ""      // the current [table] or [[array]] header
	stateKey := ""   // the key of the [hooks.state."<key>"] table we are in
	inState := false // whether we are in one
	event := ""      // set inside [[hooks.<Event>.hooks]]
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "[") {
			table, stateKey, inState, event = header(line), "", false, ""
			if rest, ok := strings.CutPrefix(table, "hooks.state."); ok {
				stateKey, _, inState = tomlString(rest)
			}
			if ev, ok := strings.CutSuffix(strings.TrimPrefix(table, "hooks."), ".hooks"); ok &&
				strings.HasPrefix(line, "[[") && strings.HasPrefix(table, "hooks.") && !strings.Contains(ev, ".") {
				event = ev
			}
			continue
		}
		key, value, ok := keyValue(line)
		if !ok {
			continue
		}
		switch {
		case inState:
			c.setState(stateKey, key, value)
		case table == "hooks.state" && strings.HasPrefix(value, "{"):
			// "<key>" = { trusted_hash = "…", enabled = true }
			for _, kv := range strings.Split(strings.Trim(value, "{} "), ",") {
				if k, v, ok := keyValue(strings.TrimSpace(kv)); ok {
					c.setState(key, k, v)
				}
			}
		case event != "" && key == "command":
			if s, _, ok := tomlString(value); ok {
				c.Handlers = append(c.Handlers, Handler{Event: event, Command: s})
			}
		}
	}
}

func (c *CodexConfig) setState(stateKey, key, value string) {
	st := c.States[stateKey]
	switch key {
	case "trusted_hash":
		if s, _, ok := tomlString(value); ok {
			st.TrustedHash = s
		}
	case "enabled":
		b := strings.HasPrefix(value, "true")
		st.Enabled = &b
	}
	c.States[stateKey] = st
}

// header returns a table header's dotted name without brackets or the
// spaces TOML allows around the dots.
func header(line string) string {
	name := strings.TrimLeft(line, "[")
	if i := strings.LastIndex(name, "]"); i >= 0 {
		name = strings.TrimRight(name[:i+1], "]")
	}
	name = strings.TrimSpace(name)
	if strings.ContainsAny(name, `"'`) {
		return name // a quoted key may hold " . " itself
	}
	return strings.ReplaceAll(strings.ReplaceAll(name, " .", "."), ". ", ".")
}

// keyValue splits `key = value`, unquoting a quoted key.
func keyValue(line string) (key, value string, ok bool) {
	if line != "" && (line[0] == '"' || line[0] == '\'') {
		k, rest, ok := tomlString(line)
		if !ok {
			return "", "", false
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, "=") {
			return "", "", false
		}
		return k, strings.TrimSpace(rest[1:]), true
	}
	k, v, ok := strings.Cut(line, "=")
	if !ok {
		return "", "", false
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), true
}

// tomlString reads the basic ("…") or literal ('…') string at the start
// of s and returns it with what follows.
func tomlString(s string) (str, rest string, ok bool) {
	if s == "" {
		return "", "", false
	}
	switch s[0] {
	case '\'':
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", false
		}
		return s[1 : 1+end], s[2+end:], true
	case '"':
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				v, err := strconv.Unquote(s[:i+1])
				if err != nil {
					return "", "", false
				}
				return v, s[i+1:], true
			}
		}
	}
	return "", "", false
}
