package yamlite

import (
	"math"
	"strconv"
)

// The decoders below give what yaml.v3's Node.Decode gives into the
// same Go type; ok is false where yaml.v3 returns an error.

// Any is the node decoded into an interface value: nil, bool, int,
// float64, string, []any, map[string]any (every key a string) or
// map[any]any.
func (n *Node) Any() any {
	switch n.Kind {
	case Mapping:
		if n.stringKeys() {
			m := make(map[string]any, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				m[n.Content[i].Value] = n.Content[i+1].Any()
			}
			return m
		}
		m := make(map[any]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Any()] = n.Content[i+1].Any()
		}
		return m
	case Sequence:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = c.Any()
		}
		return s
	}
	switch n.Tag {
	case NullTag:
		return nil
	case BoolTag:
		return n.Value[0] == 't' || n.Value[0] == 'T'
	case IntTag:
		i, _ := strconv.Atoi(n.Value)
		return i
	case FloatTag:
		f, _ := strconv.ParseFloat(n.Value, 64)
		return f
	}
	return n.Value
}

func (n *Node) stringKeys() bool {
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Tag != StrTag {
			return false
		}
	}
	return true
}

// Fields is a mapping decoded into a map of its keys' texts, which is
// how a struct sees it; nil for anything else.
func (n *Node) Fields() map[string]*Node {
	if n.Kind != Mapping {
		return nil
	}
	m := make(map[string]*Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag != NullTag {
			m[n.Content[i].Value] = n.Content[i+1]
		}
	}
	return m
}

// String decodes a scalar into a string: its text, "" for a null.
func (n *Node) String() (string, bool) {
	if n.Kind != Scalar {
		return "", false
	}
	if n.Tag == NullTag {
		return "", true
	}
	return n.Value, true
}

// Bool decodes into a bool, YAML 1.1's yes/no/on/off words included.
func (n *Node) Bool() (bool, bool) {
	switch n.Tag {
	case BoolTag:
		return n.Value[0] == 't' || n.Value[0] == 'T', true
	case NullTag:
		return false, true
	case StrTag:
		switch n.Value {
		case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON":
			return true, true
		case "n", "N", "no", "No", "NO", "off", "Off", "OFF":
			return false, true
		}
	}
	return false, false
}

// Int decodes into an int; a float is truncated.
func (n *Node) Int() (int, bool) {
	switch n.Tag {
	case IntTag:
		i, err := strconv.Atoi(n.Value)
		return i, err == nil
	case FloatTag:
		f, err := strconv.ParseFloat(n.Value, 64)
		return int(f), err == nil && f <= math.MaxInt64
	case NullTag:
		return 0, true
	}
	return 0, false
}

// Strings decodes into a []string: a null gives nil, and null items are
// left out.
func (n *Node) Strings() ([]string, bool) {
	switch {
	case n.Kind == Scalar && n.Tag == NullTag:
		return nil, true
	case n.Kind != Sequence:
		return nil, false
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		if c.Kind == Scalar && c.Tag == NullTag {
			continue
		}
		s, ok := c.String()
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// StringMap decodes a mapping into a map[string]any: keys by their text,
// null keys left out. Anything else gives nil.
func (n *Node) StringMap() map[string]any {
	f := n.Fields()
	if f == nil {
		return nil
	}
	m := make(map[string]any, len(f))
	for k, v := range f {
		m[k] = v.Any()
	}
	return m
}
