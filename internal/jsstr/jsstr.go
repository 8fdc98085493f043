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
	return unescapeSeparators(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
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
	return unescapeSeparators(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// unescapeSeparators turns Go's \u2028 and \u2029 escapes back into the
// raw characters, skipping escaped backslashes.
func unescapeSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) && (string(b[i+2:i+6]) == "2028" || string(b[i+2:i+6]) == "2029") {
			if b[i+5] == '8' {
				out = append(out, "\u2028"...)
			} else {
				out = append(out, "\u2029"...)
			}
			i += 5
			continue
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}
