package wiring

import (
	"bytes"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// SetCodexMCP adds st's [mcp_servers.st] table (CodexMCPFragment) to the
// text of a Codex config.toml, or updates the command, args and env_vars
// of the one there, keeping every other byte of the file: comments,
// order, the table's other keys. Copies of the table that an appending
// setup left behind (Codex refuses to start with two) are removed. It
// refuses a file that is not valid TOML for another reason, and one that
// defines mcp_servers.st otherwise than as a [mcp_servers.st] table
// (dotted keys, an inline table), which it would have to rewrite.
func SetCodexMCP(path string, text []byte, server MCPServer) ([]byte, error) {
	exprs, err := tomlExpressions(text)
	if err != nil {
		return nil, invalid(path, text)
	}
	want := map[string]string{
		"command":  "command = " + tomlQuote(server.Command) + "\n",
		"args":     "args = " + server.tomlArgs() + "\n",
		"env_vars": "env_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n",
	}
	order := []string{"command", "args", "env_vars"}
	stKey := []string{"mcp_servers", "st"}
	var table []string
	var edits []edit
	first := -1 // index of the first [mcp_servers.st] header
	for i, e := range exprs {
		switch e.kind {
		case unstable.Table, unstable.ArrayTable:
			table = e.key
			if !slices.Equal(e.key, stKey) {
				if e.kind == unstable.ArrayTable && hasPrefix(e.key, stKey) {
					return nil, notATable(path, text, e)
				}
				continue
			}
			if first >= 0 {
				// A copy: remove it with its keys.
				edits = append(edits, edit{e.start, sectionEnd(text, exprs, i), ""})
				continue
			}
			first = i
		case unstable.KeyValue:
			full := append(append([]string{}, table...), e.key...)
			if !slices.Equal(table, stKey) {
				if hasPrefix(full, stKey) && !hasPrefix(table, stKey) {
					return nil, notATable(path, text, e)
				}
				continue
			}
			if i > first && sectionOf(exprs, i) == first && len(e.key) == 1 {
				if line, ok := want[e.key[0]]; ok {
					edits = append(edits, edit{e.start, exprEnd(text, exprs, i), line})
					delete(want, e.key[0])
				}
			}
		}
	}
	switch {
	case first < 0:
		var b strings.Builder
		if len(text) > 0 {
			if text[len(text)-1] != '\n' {
				b.WriteByte('\n')
			}
			b.WriteByte('\n')
		}
		b.WriteString(CodexMCPFragment(server))
		edits = append(edits, edit{len(text), len(text), b.String()})
	case len(want) > 0:
		// The keys the table lacks go after its last key (or its header).
		at := lineEnd(text, exprs[first].start)
		for i := first + 1; i < len(exprs) && sectionOf(exprs, i) == first; i++ {
			at = exprEnd(text, exprs, i)
		}
		var add strings.Builder
		if at > 0 && text[at-1] != '\n' {
			add.WriteByte('\n')
		}
		for _, k := range order {
			add.WriteString(want[k])
		}
		edits = append(edits, edit{at, at, add.String()})
	}
	out := apply(text, edits)
	var check map[string]any
	if err := toml.Unmarshal(out, &check); err != nil {
		return nil, invalid(path, text)
	}
	return out, nil
}

// tomlExpr is one top-level expression of a TOML document: a table
// header or a key/value, with its (dotted) key and the offset of the line
// it starts on.
type tomlExpr struct {
	kind  unstable.Kind
	key   []string
	start int
}

func tomlExpressions(text []byte) ([]tomlExpr, error) {
	var p unstable.Parser
	p.Reset(text)
	var out []tomlExpr
	for p.NextExpression() {
		n := p.Expression()
		e := tomlExpr{kind: n.Kind}
		it := n.Key()
		for it.Next() {
			k := it.Node()
			if e.key == nil {
				e.start = lineStart(text, int(k.Raw.Offset))
			}
			e.key = append(e.key, string(k.Data))
		}
		if e.key != nil {
			out = append(out, e)
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	return out, nil
}

// sectionOf is the index of the table header expression i is under, -1
// for the root table.
func sectionOf(exprs []tomlExpr, i int) int {
	for j := i; j >= 0; j-- {
		if exprs[j].kind != unstable.KeyValue {
			return j
		}
	}
	return -1
}

// exprEnd is where expression i ends: where the next one starts, less
// the blank and comment lines before it (they belong to what follows).
func exprEnd(text []byte, exprs []tomlExpr, i int) int {
	end := len(text)
	if i+1 < len(exprs) {
		end = exprs[i+1].start
	}
	for end > exprs[i].start {
		prev := lineStart(text, end-1)
		line := strings.TrimSpace(string(text[prev:end]))
		if line != "" && line[0] != '#' {
			break
		}
		end = prev
	}
	return end
}

// sectionEnd is where the table whose header is expression i ends: after
// its last key (or its header).
func sectionEnd(text []byte, exprs []tomlExpr, i int) int {
	j := i
	for j+1 < len(exprs) && exprs[j+1].kind == unstable.KeyValue {
		j++
	}
	return exprEnd(text, exprs, j)
}

func lineStart(text []byte, off int) int {
	return bytes.LastIndexByte(text[:off], '\n') + 1
}

func lineEnd(text []byte, off int) int {
	if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(text)
}

func hasPrefix(key, prefix []string) bool {
	return len(key) >= len(prefix) && slices.Equal(key[:len(prefix)], prefix)
}

func notATable(path string, text []byte, e tomlExpr) error {
	line := bytes.Count(text[:e.start], []byte("\n")) + 1
	return &TOMLError{Path: path, Line: line, Col: 1, Table: "mcp_servers.st",
		Msg: "st's MCP server is defined here otherwise than as a [mcp_servers.st] table; make it one (or edit it by hand)"}
}

// edit replaces text[from:to] with s.
type edit struct {
	from, to int
	s        string
}

// apply makes non-overlapping edits, in any order.
func apply(text []byte, edits []edit) []byte {
	slices.SortFunc(edits, func(a, b edit) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return a.to - b.to // an insertion before a removal at the same place
	})
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(text[at:e.from])
		out.WriteString(e.s)
		at = e.to
	}
	out.Write(text[at:])
	return out.Bytes()
}

// invalid is the error for text that does not parse.
func invalid(path string, text []byte) error {
	if err := toml.Unmarshal(text, &map[string]any{}); err != nil {
		return tomlError(path, err)
	}
	return &TOMLError{Path: path, Line: 1, Col: 1, Msg: "st could not edit this file"}
}
