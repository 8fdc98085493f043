package yamlite

import (
	"strings"
	"unicode"
)

// flowNode reads a one-line flow collection or scalar at the start of s
// and returns what follows it.
func flowNode(s string) (*Node, string, error) {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return nil, "", ErrUnsupported
	}
	switch s[0] {
	case '[':
		return flowSequence(s[1:])
	case '{':
		return flowMapping(s[1:])
	case '"', '\'':
		v, after, err := quoted(s)
		if err != nil {
			return nil, "", err
		}
		return &Node{Kind: Scalar, Tag: StrTag, Value: v}, after, nil
	}
	i := strings.IndexAny(s, ",]}")
	if i < 0 || !flowPlain(s[:i]) {
		return nil, "", ErrUnsupported
	}
	n, err := plain(strings.TrimRight(s[:i], " "))
	return n, s[i:], err
}

// flowPlain says whether s holds only characters whose meaning in a
// flow collection's plain scalar is plain: letters, digits, spaces and
// a few safe punctuation marks.
func flowPlain(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0xA0 && unicode.IsLetter(r) ||
			strings.ContainsRune(" _-./+=~()$;<^", r)) {
			return false
		}
	}
	return true
}

func flowSequence(s string) (*Node, string, error) {
	n := &Node{Kind: Sequence}
	s = strings.TrimLeft(s, " ")
	if strings.HasPrefix(s, "]") {
		return n, s[1:], nil
	}
	for {
		item, after, err := flowNode(s)
		if err != nil {
			return nil, "", err
		}
		n.Content = append(n.Content, item)
		if s, err = flowNext(after, ']'); err != nil {
			return nil, "", err
		}
		if s == "" {
			return n, closed(after), nil
		}
	}
}

func flowMapping(s string) (*Node, string, error) {
	n := &Node{Kind: Mapping}
	s = strings.TrimLeft(s, " ")
	if strings.HasPrefix(s, "}") {
		return n, s[1:], nil
	}
	seen := map[string]bool{}
	for {
		key, after, err := flowKey(s)
		if err != nil {
			return nil, "", err
		}
		if seen[key.Value] {
			return nil, "", ErrUnsupported
		}
		seen[key.Value] = true
		val, after, err := flowNode(after)
		if err != nil {
			return nil, "", err
		}
		n.Content = append(n.Content, key, val)
		if s, err = flowNext(after, '}'); err != nil {
			return nil, "", err
		}
		if s == "" {
			return n, closed(after), nil
		}
	}
}

// flowNext reads the ", " or closer after a flow item: it returns the
// next item's text, or "" at the closer.
func flowNext(after string, closer byte) (string, error) {
	after = strings.TrimLeft(after, " ")
	switch {
	case after == "":
		return "", ErrUnsupported
	case after[0] == closer:
		return "", nil
	case after[0] != ',':
		return "", ErrUnsupported
	}
	next := strings.TrimLeft(after[1:], " ")
	if next == "" || next[0] == closer || next[0] == ',' {
		return "", ErrUnsupported // empty entries
	}
	return next, nil
}

// flowKey reads "key: " in a flow mapping and returns what follows it.
func flowKey(s string) (*Node, string, error) {
	var key *Node
	var after string
	if s == "" {
		return nil, "", ErrUnsupported
	}
	if s[0] == '"' || s[0] == '\'' {
		v, a, err := quoted(s)
		if err != nil {
			return nil, "", err
		}
		key, after = &Node{Kind: Scalar, Tag: StrTag, Value: v}, strings.TrimLeft(a, " ")
	} else {
		i := strings.IndexByte(s, ':')
		if i < 0 || !flowPlain(s[:i]) {
			return nil, "", ErrUnsupported
		}
		k, err := plain(strings.TrimRight(s[:i], " "))
		if err != nil {
			return nil, "", err
		}
		key, after = k, s[i:]
	}
	if !strings.HasPrefix(after, ": ") {
		return nil, "", ErrUnsupported
	}
	return key, after[2:], nil
}

// closed returns what follows the closer that flowNext found in after.
func closed(after string) string { return strings.TrimLeft(after, " ")[1:] }
