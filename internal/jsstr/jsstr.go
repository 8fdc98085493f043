// Package jsstr reproduces the few JavaScript string and JSON behaviours
// that st's output must match byte for byte: the \s whitespace set, and
// JSON.stringify's escaping.
package jsstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// IsSpace matches JavaScript's \s: Unicode space separators, the ASCII
// controls \t..\r, the line and paragraph separators and the BOM.
func IsSpace(r rune) bool {
	return r >= '\t' && r <= '\r' || r == ' ' || r == '\u00a0' || r == '\uFEFF' ||
		r == '\u2028' || r == '\u2029' || r > 0xff && unicode.Is(unicode.Zs, r)
}

// TrimSpace trims JavaScript whitespace from both ends of s.
func TrimSpace(s string) string { return strings.TrimFunc(s, IsSpace) }

// TrimRightSpace trims JavaScript whitespace from the end of s.
func TrimRightSpace(s string) string { return strings.TrimRightFunc(s, IsSpace) }

// IsDigits reports whether s matches JavaScript's /^\d+$/: one or more
// ASCII digits (checked by hand: a regexp would cost every st start its
// compile time).
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Marshal encodes v compactly as JSON.stringify would: no HTML escaping,
// U+2028 and U+2029 left raw. There is no trailing newline.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return UndoGoEscapes(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// MarshalIndent encodes v like JSON.stringify(v, null, 2).
func MarshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return UndoGoEscapes(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// UndoGoEscapes turns the escapes Go's JSON encoder writes and
// JSON.stringify does not (<, >, & and U+2028, U+2029) back into the
// characters. Backslashes occur only inside strings, where an escaped
// backslash is skipped as a pair, so text that merely looks like an
// escape is left alone.
func UndoGoEscapes(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) && !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			if r, ok := goEscaped(string(b[i+2 : i+6])); ok {
				out, i = append(out, r...), i+5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}

// goEscaped maps the hex digits of Go's extra escapes to their text. A
// switch, not a map: package-level maps are built at every start.
func goEscaped(hex string) (string, bool) {
	switch hex {
	case "003c", "003C":
		return "<", true
	case "003e", "003E":
		return ">", true
	case "0026":
		return "&", true
	case "2028":
		return "\u2028", true
	case "2029":
		return "\u2029", true
	}
	return "", false
}
