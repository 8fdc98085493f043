// Package yamlite reads the small part of YAML that people write in st's
// config.yaml: block mappings and sequences, one-line flow collections,
// plain and quoted scalars, literal and folded block scalars, comments.
//
// It exists so that the st binary need not link gopkg.in/yaml.v3, whose
// package initialisation (two regular expressions and its tables) cost
// more than half of st's start-up work, at every start, config or not.
// Parse either returns the document yaml.v3 would read or
// ErrUnsupported; it never guesses. FuzzParse holds it to yaml.v3.
package yamlite

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// ErrUnsupported is returned for anything outside the subset, whether or
// not it is valid YAML: anchors, tags, multi-line plain or quoted
// scalars, multi-line flow collections, complex keys, several documents,
// tabs, duplicate keys and the like.
var ErrUnsupported = errors.New("yamlite: unsupported YAML")

// Kind is a node's kind.
type Kind int

// The node kinds.
const (
	Scalar Kind = iota + 1
	Mapping
	Sequence
)

// The scalar tags, as yaml.v3 resolves them.
const (
	StrTag   = "!!str"
	IntTag   = "!!int"
	FloatTag = "!!float"
	BoolTag  = "!!bool"
	NullTag  = "!!null"
)

// Node is one YAML node.
type Node struct {
	Kind    Kind
	Tag     string  // scalars: one of the tags above
	Value   string  // scalars: the text
	Content []*Node // mappings: key, value, key, value…; sequences: the items
}

// Parse reads one document whose top level is a block mapping. An empty
// document (nothing but blank lines and comments) gives nil.
func Parse(data []byte) (*Node, error) {
	if !plainText(data) {
		return nil, ErrUnsupported
	}
	p := &parser{lines: strings.Split(string(data), "\n")}
	p.skipBlank()
	if p.eof() {
		return nil, nil
	}
	if indentOf(p.lines[p.i]) != 0 {
		return nil, ErrUnsupported
	}
	n, err := p.mapping(0)
	if err != nil {
		return nil, err
	}
	if p.skipBlank(); !p.eof() {
		return nil, ErrUnsupported
	}
	return n, nil
}

// plainText refuses what the line parser does not handle: invalid UTF-8,
// tabs, carriage returns and other controls, YAML 1.1's extra line
// breaks, the byte order mark, and document markers and directives.
func plainText(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	for _, r := range string(data) {
		switch {
		case r < ' ' && r != '\n', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r == '\u2028', r == '\u2029', r == '\uFEFF', r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return false
		}
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...") || strings.HasPrefix(l, "%") {
			return false
		}
	}
	return true
}

type parser struct {
	lines []string
	i     int
}

func (p *parser) eof() bool { return p.i >= len(p.lines) }

// skipBlank moves past blank and comment-only lines.
func (p *parser) skipBlank() {
	for !p.eof() && isBlank(p.lines[p.i]) {
		p.i++
	}
}

func isBlank(l string) bool {
	t := strings.TrimLeft(l, " ")
	return t == "" || t[0] == '#'
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// nextIndent is the indentation of the next non-blank line, -1 at the end.
func (p *parser) nextIndent() int {
	p.skipBlank()
	if p.eof() {
		return -1
	}
	return indentOf(p.lines[p.i])
}

func isSeqItem(t string) bool { return t == "-" || strings.HasPrefix(t, "- ") }

// mapping reads a block mapping whose keys sit at column ind.
func (p *parser) mapping(ind int) (*Node, error) {
	n := &Node{Kind: Mapping}
	seen := map[string]bool{}
	for {
		in := p.nextIndent()
		if in < ind {
			return n, nil
		}
		if in > ind {
			return nil, ErrUnsupported
		}
		text := p.lines[p.i][ind:]
		if isSeqItem(text) {
			return n, nil // the caller decides whether a sequence may follow
		}
		key, rest, err := splitKey(text)
		if err != nil {
			return nil, err
		}
		if seen[key.Value] {
			return nil, ErrUnsupported
		}
		seen[key.Value] = true
		p.i++
		val, err := p.value(rest, ind, true)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, key, val)
	}
}

// sequence reads a block sequence whose dashes sit at column ind.
func (p *parser) sequence(ind int) (*Node, error) {
	n := &Node{Kind: Sequence}
	for {
		in := p.nextIndent()
		if in < ind || in == ind && !isSeqItem(p.lines[p.i][ind:]) {
			return n, nil
		}
		if in > ind {
			return nil, ErrUnsupported
		}
		rest := p.lines[p.i][ind+1:]
		content := strings.TrimLeft(rest, " ")
		col := ind + 1 + len(rest) - len(content)
		var item *Node
		var err error
		if content != "" && content[0] != '#' && isKeyLine(content) {
			// "- key: value" opens a mapping at the key's column.
			p.lines[p.i] = strings.Repeat(" ", col) + content
			item, err = p.mapping(col)
		} else {
			p.i++
			item, err = p.value(rest, ind, false)
		}
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, item)
	}
}

// value reads the node after "key:" or "-": rest is the rest of that
// line, ind the column of the key or dash. A mapping's value may be a
// sequence at the key's own column.
func (p *parser) value(rest string, ind int, inMapping bool) (*Node, error) {
	t := strings.TrimLeft(rest, " ")
	if t != "" && t[0] != '#' && t == rest {
		return nil, ErrUnsupported // "key:value" is not a key
	}
	switch {
	case t == "" || t[0] == '#':
		next := p.nextIndent()
		switch {
		case next > ind:
			if isSeqItem(p.lines[p.i][next:]) {
				return p.sequence(next)
			}
			return p.mapping(next)
		case next == ind && inMapping && isSeqItem(p.lines[p.i][ind:]):
			return p.sequence(ind)
		}
		return &Node{Kind: Scalar, Tag: NullTag}, nil
	case t[0] == '|' || t[0] == '>':
		return p.blockScalar(t, ind)
	}
	n, after, err := inlineNode(t)
	if err != nil {
		return nil, err
	}
	if !endOfLine(after) {
		return nil, ErrUnsupported
	}
	if next := p.nextIndent(); next > ind {
		return nil, ErrUnsupported // a continuation line or a nested block
	}
	return n, nil
}

// endOfLine says whether what follows a node is only spaces and comment.
func endOfLine(s string) bool {
	t := strings.TrimLeft(s, " ")
	return t == "" || t[0] == '#' && t != s
}

// inlineNode reads a flow collection, a quoted scalar or a plain scalar
// at the start of s (block context) and returns what follows it.
func inlineNode(s string) (*Node, string, error) {
	switch s[0] {
	case '[', '{':
		return flowNode(s)
	case '"', '\'':
		v, after, err := quoted(s)
		if err != nil {
			return nil, "", err
		}
		if strings.HasPrefix(strings.TrimLeft(after, " "), ":") {
			return nil, "", ErrUnsupported
		}
		return &Node{Kind: Scalar, Tag: StrTag, Value: v}, after, nil
	}
	end := len(s)
	if i := strings.Index(s, " #"); i >= 0 {
		end = i
	}
	text := strings.TrimRight(s[:end], " ")
	if strings.Contains(text, ": ") || strings.HasSuffix(text, ":") {
		return nil, "", ErrUnsupported
	}
	n, err := plain(text)
	return n, s[end:], err
}

// plain resolves a plain scalar the way yaml.v3 does, refusing the forms
// whose resolution is intricate (other numbers, timestamps, "<<").
func plain(text string) (*Node, error) {
	if text == "" || strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(text[0])) && !isInt(text) {
		return nil, ErrUnsupported
	}
	switch text {
	case "~", "null", "Null", "NULL":
		return &Node{Kind: Scalar, Tag: NullTag, Value: text}, nil
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return &Node{Kind: Scalar, Tag: BoolTag, Value: text}, nil
	case "<<":
		return nil, ErrUnsupported
	}
	c := text[0]
	if c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' {
		switch {
		case isInt(text):
			return &Node{Kind: Scalar, Tag: IntTag, Value: text}, nil
		case isFloat(text):
			return &Node{Kind: Scalar, Tag: FloatTag, Value: text}, nil
		}
		return nil, ErrUnsupported
	}
	return &Node{Kind: Scalar, Tag: StrTag, Value: text}, nil
}

// isInt matches [-+]?(0|[1-9][0-9]{0,17}): decimal integers that fit an int.
func isInt(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	return s == "0" || s != "" && s[0] != '0' && len(s) <= 18 && digits(s)
}

// isFloat matches [-+]?(0|[1-9][0-9]{0,14})\.[0-9]{1,15}.
func isFloat(s string) bool {
	whole, frac, ok := strings.Cut(s, ".")
	return ok && len(whole) <= 16 && isInt(whole) && frac != "" && len(frac) <= 15 && digits(frac)
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isKeyLine says whether a line's content is "key: …".
func isKeyLine(t string) bool {
	_, _, err := splitKey(t)
	return err == nil
}

// splitKey reads "key:" at the start of t and returns the key and the
// rest of the line after the colon.
func splitKey(t string) (*Node, string, error) {
	if t[0] == '"' || t[0] == '\'' {
		v, after, err := quoted(t)
		if err != nil {
			return nil, "", err
		}
		after = strings.TrimLeft(after, " ")
		if !strings.HasPrefix(after, ":") || len(after) > 1 && after[1] != ' ' {
			return nil, "", ErrUnsupported
		}
		return &Node{Kind: Scalar, Tag: StrTag, Value: v}, after[1:], nil
	}
	i := strings.Index(t, ": ")
	if i < 0 {
		if !strings.HasSuffix(t, ":") {
			return nil, "", ErrUnsupported
		}
		i = len(t) - 1
	}
	text := strings.TrimRight(t[:i], " ")
	if strings.Contains(text, " #") || len(text) > 1000 {
		return nil, "", ErrUnsupported
	}
	k, err := plain(text)
	if err != nil {
		return nil, "", err
	}
	return k, t[i+1:], nil
}

// quoted reads a one-line single- or double-quoted scalar at the start
// of s and returns its value and what follows the closing quote.
func quoted(s string) (string, string, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), s[i+1:], nil
		case c == '\\' && q == '"':
			r, n, ok := escape(s[i+1:])
			if !ok {
				return "", "", ErrUnsupported
			}
			b.WriteString(r)
			i += n
		default:
			b.WriteByte(c)
		}
	}
	return "", "", ErrUnsupported // unclosed on this line
}

// escape reads one double-quoted escape after the backslash and returns
// its text and the number of bytes it took.
func escape(s string) (string, int, bool) {
	if s == "" {
		return "", 0, false
	}
	switch s[0] {
	case '\\', '"', '/':
		return s[:1], 1, true
	case 'n':
		return "\n", 1, true
	case 't':
		return "\t", 1, true
	case 'r':
		return "\r", 1, true
	case '0':
		return "\x00", 1, true
	case 'u':
		if len(s) < 5 || !isHex(s[1:5]) {
			return "", 0, false
		}
		r := rune(hexValue(s[1:5]))
		if r >= 0xD800 && r <= 0xDFFF {
			return "", 0, false
		}
		return string(r), 5, true
	}
	return "", 0, false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

func hexValue(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= '9':
			v = v*16 + int(c-'0')
		case c >= 'a':
			v = v*16 + int(c-'a'+10)
		default:
			v = v*16 + int(c-'A'+10)
		}
	}
	return v
}
