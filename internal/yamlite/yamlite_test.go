package yamlite

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// configs are config.yaml files as people write them; each must be read,
// and read as yaml.v3 reads it.
var configs = []string{
	"operator: night-shift\n",
	"# who hears about wedged agents\noperator: night-shift\n",
	"capture_prompts: true\ncontext_window: 1000000\n",
	"capture_prompts: yes\ncontext_window: 1.5\n",
	"stop-failure:\n  rate_limit: {status: busy, notify: true, priority: low}\n  server_error:\n    status: none\n    notify: false\n  \"*\": {notify: false}\n",
	"deny:\n  - tool: Bash\n    pattern: 'git\\s+push\\s+.*--force'\n    reason: Force pushes are not allowed here; push normally or ask the operator.\n  - tool: Edit|Write\n    pattern: '(^|/)\\.env$'\n",
	"deny:\n- tool: Bash\n  pattern: \"rm -rf /\"\n",
	"subagent_contract: |\n  End with a list of files you read.\n",
	"subagent_contract: |-\n  line one\n\n  line three\n\nnext: x\n",
	"subagent_contract: >\n  folded\n  text\n\n  para\n",
	"subagent_contract: >+\n  kept\n\n",
	"notify_operator_on: [idle_prompt, permission_prompt]\n",
	"notify_operator_on: idle_prompt, permission_prompt # a comment\n",
	"notify_operator_on:\n  - idle_prompt\n  -\n  - 'x'\n",
	"operator: \"ops \\u00e9\\n\" # quoted\nempty:\nnull: ~\nn: -12\nf: 1.50\ns: 'it''s'\n",
	"a:\n  b:\n    c: [1, [2, 3], {d: e}]\n  f: {}\n  g: []\n",
	"operator: ops",
	"subagent_contract: |\n  no final newline",
	"",
	"# only a comment\n\n",
	"key with spaces: http://x.y/z?a=b#frag, [x] {y}\n",
}

func TestParseReadsConfigsAsYAMLv3(t *testing.T) {
	for _, c := range configs {
		n, err := Parse([]byte(c))
		if err != nil {
			t.Errorf("Parse(%q): %v", c, err)
			continue
		}
		if msg := sameAsYAMLv3([]byte(c), n); msg != "" {
			t.Errorf("Parse(%q): %s", c, msg)
		}
	}
}

func TestParseRefusesWhatItDoesNotRead(t *testing.T) {
	for _, c := range []string{
		"a: &x 1\nb: *x\n",           // anchors and aliases
		"a: !!str 1\n",               // tags
		"a: one\n  two\n",            // multi-line plain scalar
		"a: [1,\n  2]\n",             // multi-line flow
		"? complex\n: key\n",         // complex key
		"a: 1\n---\nb: 2\n",          // two documents
		"a:\tb\n",                    // tab
		"a: 1\na: 2\n",               // duplicate key
		"a: |2\n   x\n",              // indentation indicator
		"a: 0x10\n",                  // intricate number
		"a: 2001-12-14\n",            // timestamp
		"- a\n- b\n",                 // not a mapping
		"a: b: c\n",                  // invalid
		"a: [unclosed\n",             // invalid
		"  a: 1\n",                   // indented top level
		"a: 1\r\n",                   // CRLF
		"<<: {a: 1}\n",               // merge key
		"a: \"\\x41\"\n",             // escape outside the subset
		"a: {b: 1, b: 2}\n",          // duplicate flow key
		"a: [1, 2,]\n",               // trailing comma
		"a: >\n  x\n    more\n  y\n", // more-indented folded line
	} {
		if _, err := Parse([]byte(c)); !errors.Is(err, ErrUnsupported) {
			t.Errorf("Parse(%q) = %v, want ErrUnsupported", c, err)
		}
	}
}

// FuzzParse: whatever Parse reads, yaml.v3 reads the same way.
func FuzzParse(f *testing.F) {
	for _, c := range configs {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data)
		if err != nil {
			return
		}
		if msg := sameAsYAMLv3(data, n); msg != "" {
			t.Fatalf("Parse(%q): %s", data, msg)
		}
	})
}

// sameAsYAMLv3 compares n with yaml.v3's reading of data, node by node and
// through every decoder; it returns "" when they agree.
func sameAsYAMLv3(data []byte, n *Node) string {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Sprintf("read, but yaml.v3 says %v", err)
	}
	if n == nil {
		if len(doc.Content) != 0 && !(doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].ShortTag() == NullTag) {
			return "empty, but yaml.v3 reads a document"
		}
		return ""
	}
	if len(doc.Content) != 1 {
		return "yaml.v3 reads no document"
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return fmt.Sprintf("yaml.v3 into a map: %v", err)
	}
	if got := n.StringMap(); !reflect.DeepEqual(got, m) {
		return fmt.Sprintf("StringMap = %#v, yaml.v3 %#v", got, m)
	}
	return sameNode(n, doc.Content[0], "$")
}

func sameNode(n *Node, y *yaml.Node, path string) string {
	kinds := map[yaml.Kind]Kind{yaml.ScalarNode: Scalar, yaml.MappingNode: Mapping, yaml.SequenceNode: Sequence}
	if kinds[y.Kind] != n.Kind {
		return fmt.Sprintf("%s: kind %d, yaml.v3 %d", path, n.Kind, y.Kind)
	}
	if n.Kind == Scalar && (n.Value != y.Value || n.Tag != y.ShortTag()) {
		return fmt.Sprintf("%s: %s %q, yaml.v3 %s %q", path, n.Tag, n.Value, y.ShortTag(), y.Value)
	}
	if len(n.Content) != len(y.Content) {
		return fmt.Sprintf("%s: %d children, yaml.v3 %d", path, len(n.Content), len(y.Content))
	}
	if msg := sameDecoding(n, y, path); msg != "" {
		return msg
	}
	for i := range n.Content {
		if msg := sameNode(n.Content[i], y.Content[i], fmt.Sprintf("%s/%d", path, i)); msg != "" {
			return msg
		}
	}
	return ""
}

func sameDecoding(n *Node, y *yaml.Node, path string) string {
	var a any
	var s string
	var b bool
	var i int
	var l []string
	checks := []struct {
		name   string
		got    any
		gotOK  bool
		target any
	}{
		{"Any", n.Any(), true, &a},
		{"String", first(n.String()), second(n.String()), &s},
		{"Bool", first(n.Bool()), second(n.Bool()), &b},
		{"Int", first(n.Int()), second(n.Int()), &i},
		{"Strings", first(n.Strings()), second(n.Strings()), &l},
	}
	for _, c := range checks {
		err := y.Decode(c.target)
		if (err == nil) != c.gotOK {
			return fmt.Sprintf("%s: %s ok=%v, yaml.v3 error %v", path, c.name, c.gotOK, err)
		}
		if want := reflect.ValueOf(c.target).Elem().Interface(); err == nil && !reflect.DeepEqual(c.got, want) &&
			!(c.name == "Any" && strings.Contains(fmt.Sprint(want), "NaN")) {
			return fmt.Sprintf("%s: %s = %#v, yaml.v3 %#v", path, c.name, c.got, want)
		}
	}
	return ""
}

func first[T any](v T, _ bool) T      { return v }
func second[T any](_ T, ok bool) bool { return ok }

// FuzzParseShapes builds documents from the shapes of the subset, driven
// by the fuzzer's bytes, so that most inputs are read rather than
// refused, and holds each reading to yaml.v3's.
func FuzzParseShapes(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("a seed of many choices: 0123456789 abcdefghijklmnopqrstuvwxyz"))
	f.Fuzz(func(t *testing.T, choices []byte) {
		g := &shapes{choices: choices}
		var b strings.Builder
		g.mapping(&b, 0, 3)
		data := []byte(b.String())
		n, err := Parse(data)
		if err != nil {
			return
		}
		if msg := sameAsYAMLv3(data, n); msg != "" {
			t.Fatalf("Parse(%q): %s", data, msg)
		}
	})
}

type shapes struct {
	choices []byte
	i       int
}

func (g *shapes) pick(n int) int {
	if g.i >= len(g.choices) {
		return 0
	}
	g.i++
	return int(g.choices[g.i-1]) % n
}

var (
	words   = []string{"a", "b", "tool", "operator", "x y", "it's", "1", "-2", "0.5", "true", "no", "~", "null", "", "#", "a#b", "a: b", "é", "http://x", "[", "{", "\\", "\"", "'", ",", "*", "&", "!", "|", ">", "-", "?", ":", "%", "@", "`", "1.", "01", "+3", ".5", "1e3", "0x1f", "2001-01-01", "NaN", ".inf", "y", "on", "<<", " "}
	spaces  = []string{"", " ", "  "}
	newline = []string{"\n", "\n\n", "\n# c\n", " # c\n", "\n  \n", ""}
)

func (g *shapes) word() string { return words[g.pick(len(words))] }

func (g *shapes) scalar(flow bool) string {
	w := g.word() + g.word()[:0] + strings.Repeat(g.word(), g.pick(2))
	switch g.pick(4) {
	case 1:
		return "'" + strings.ReplaceAll(w, "'", "''") + "'"
	case 2:
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "é", `\u00e9`).Replace(w) + `"`
	}
	return w
}

func (g *shapes) flow(b *strings.Builder, depth int) {
	switch k := g.pick(3); {
	case k == 0 || depth == 0:
		b.WriteString(g.scalar(true))
	case k == 1:
		b.WriteString("[")
		for i := range g.pick(3) {
			if i > 0 {
				b.WriteString("," + spaces[g.pick(3)])
			}
			g.flow(b, depth-1)
		}
		b.WriteString("]")
	default:
		b.WriteString("{")
		for i := range g.pick(3) {
			if i > 0 {
				b.WriteString("," + spaces[g.pick(3)])
			}
			b.WriteString(g.scalar(true) + ":" + spaces[g.pick(3)])
			g.flow(b, depth-1)
		}
		b.WriteString("}")
	}
}

func (g *shapes) value(b *strings.Builder, ind, depth int) {
	pad := strings.Repeat(" ", ind)
	switch g.pick(6) {
	case 0:
		b.WriteString(" " + g.scalar(false) + newline[g.pick(len(newline))])
	case 1:
		b.WriteString(" ")
		g.flow(b, 2)
		b.WriteString(newline[g.pick(len(newline))])
	case 2:
		b.WriteString(" " + []string{"|", ">", "|-", ">-", "|+", ">+", "| "}[g.pick(7)] + "\n")
		for range 1 + g.pick(4) {
			b.WriteString(pad + spaces[1+g.pick(2)] + spaces[g.pick(2)] + g.word() + g.word() + newline[g.pick(3)])
		}
	case 3:
		if depth > 0 {
			b.WriteString(newline[g.pick(3)])
			g.mapping(b, ind+1+g.pick(3), depth-1)
			return
		}
		b.WriteString("\n")
	case 4:
		if depth > 0 {
			b.WriteString("\n")
			g.sequence(b, ind+g.pick(3), depth-1)
			return
		}
		b.WriteString("\n")
	default:
		b.WriteString(newline[g.pick(len(newline))])
	}
}

func (g *shapes) mapping(b *strings.Builder, ind, depth int) {
	for range 1 + g.pick(4) {
		b.WriteString(strings.Repeat(" ", ind) + g.scalar(false) + ":")
		g.value(b, ind, depth)
	}
}

func (g *shapes) sequence(b *strings.Builder, ind, depth int) {
	for range 1 + g.pick(3) {
		b.WriteString(strings.Repeat(" ", ind) + "-")
		if g.pick(3) == 0 && depth > 0 {
			b.WriteString(" " + g.scalar(false) + ":")
			g.value(b, ind+2, depth-1)
			continue
		}
		g.value(b, ind, depth)
	}
}
