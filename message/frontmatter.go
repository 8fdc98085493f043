// Package message is the pure (no I/O) model of a message file: the
// permissive frontmatter reader every st reader shares, the exact writer,
// and the filename grammar. Files come from other machines through sync,
// so the reader accepts any bytes and never fails.
package message

import "strings"

// Fields are the frontmatter keys of a file, all values as strings.
type Fields map[string]string

// Parse splits a file into frontmatter fields and body. Frontmatter exists
// only when the first line is exactly "---" and a later line is exactly
// "---"; otherwise ok is false, fields is empty and body is the whole text.
func Parse(text string) (fields Fields, body string, ok bool) {
	fields = Fields{}
	body, ok = Scan(text, func(key, value string) { fields[key] = value })
	return fields, body, ok
}

// Scan is Parse without the map: it calls fn with each field in file
// order (a later line for a key overrides an earlier one, as in Parse) and
// returns the body. A reader that keeps a few fields of many messages
// skips building a map for each.
func Scan(text string, fn func(key, value string)) (body string, ok bool) {
	if !strings.HasPrefix(text, "---\n") {
		return text, false
	}
	// The closing line first: without one there is no frontmatter, and
	// fn must not have been called.
	front := text[4:]
	end := -1
	for i := 0; ; {
		j := strings.IndexByte(front[i:], '\n')
		line := front[i:]
		if j >= 0 {
			line = front[i : i+j]
		}
		if line == "---" {
			end, body = i, ""
			if j >= 0 {
				body = front[i+j+1:]
			}
			break
		}
		if j < 0 {
			return text, false
		}
		i += j + 1
	}
	for rest := front[:end]; rest != ""; {
		line := rest
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = ""
		}
		if k, v, ok := parseLine(line); ok {
			fn(k, v)
		}
	}
	return body, true
}

// parseLine reads one "key: value" line; blank, comment and malformed
// lines are not pairs.
func parseLine(line string) (key, value string, ok bool) {
	s := trimBlankLeft(line)
	if s == "" || s[0] == '#' {
		return "", "", false
	}
	i := 0
	for i < len(s) && isKeyByte(s[i]) {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	key = s[:i]
	rest := trimBlankLeft(s[i:])
	if rest == "" || rest[0] != ':' {
		return "", "", false
	}
	value = trimBlankRight(trimBlankLeft(rest[1:]))
	if strings.ContainsRune(value, '\r') {
		return "", "", false // a CRLF file's lines: not st's
	}
	return key, unwrap(value), true
}

// trimBlankLeft and trimBlankRight trim spaces and tabs. They are
// strings.TrimLeft and TrimRight with the cutset " \t" without building
// the cutset's set on every call, which took a fifth of a listing's
// frontmatter reading (inbox.BenchmarkReadHeading: about 370 → 260 ns
// a message).
func trimBlankLeft(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

func trimBlankRight(s string) string {
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func isKeyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// unwrap removes one pair of surrounding quotes: double quotes with
// backslash escapes, single quotes verbatim.
func unwrap(v string) string {
	if len(v) < 2 {
		return v
	}
	switch {
	case v[0] == '"' && v[len(v)-1] == '"':
		return unescape(v[1 : len(v)-1])
	case v[0] == '\'' && v[len(v)-1] == '\'':
		return v[1 : len(v)-1]
	}
	return v
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i == len(s)-1 {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// Pair is one frontmatter key and its value, a string or a []string.
type Pair struct {
	Key   string
	Value any
}

// Format writes frontmatter in the given order followed by body.
func Format(pairs []Pair, body []byte) []byte {
	var b strings.Builder
	b.WriteString("---\n")
	for _, p := range pairs {
		b.WriteString(p.Key)
		b.WriteString(": ")
		switch v := p.Value.(type) {
		case string:
			b.WriteString(quote(v))
		case []string:
			b.WriteByte('[')
			for i, item := range v {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(quote(item))
			}
			b.WriteByte(']')
		}
		b.WriteByte('\n')
	}
	b.WriteString("---\n")
	out := make([]byte, 0, b.Len()+len(body))
	return append(append(out, b.String()...), body...)
}

// quote writes s plain when it matches ^[A-Za-z0-9_.-]+$, else
// double-quoted with backslashes, quotes, newlines, returns and tabs
// escaped (a loop rather than a strings.Replacer, which would be built
// at every start).
func quote(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func isPlain(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isKeyByte(c) || c == '.') {
			return false
		}
	}
	return true
}
