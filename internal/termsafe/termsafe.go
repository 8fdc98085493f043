// Package termsafe makes text that an agent wrote safe to print on one
// line of a terminal: an agent (or a model behind it) chooses subjects,
// reasons, names and statuses, and a newline in one forges lines of the
// output while an escape sequence reaches the operator's terminal.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line returns s with every control character written as a visible
// escape: \n, \r, \e-style sequences as \x1b, C1 controls as \u0085, a
// byte that is not UTF-8 as \xff. A tab is kept (it moves the cursor on
// the same line only). Text without any of these comes back unchanged,
// so ordinary output stays byte for byte what it was.
func Line(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteByte('\t')
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no escape (the common case, checked
// without allocating).
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' || c == 0x7f {
			return false
		}
		if c >= utf8.RuneSelf {
			return cleanRunes(s[i:])
		}
	}
	return true
}

func cleanRunes(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError && len(s[i:]) > 0 {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return false
			}
		}
		if r < 0x20 && r != '\t' || r >= 0x7f && r < 0xa0 {
			return false
		}
	}
	return true
}

// Control returns the first control character of s (tab included: this
// is for one-line text where it enters), and whether s holds one. A byte
// that is not UTF-8 counts, as utf8.RuneError.
func Control(s string) (rune, bool) {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return r, true
			}
		}
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return r, true
		}
	}
	return 0, false
}

// Text is Line for text of many lines, a message's body: newlines, tabs
// and the carriage return of a CRLF line end are kept, every other
// control character (an escape sequence, a lone carriage return that
// would overwrite the line before it) is written as a visible escape.
func Text(s string) string {
	if clean(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", ""), "\n", "")) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for line := range strings.Lines(s) {
		body, end := line, ""
		if strings.HasSuffix(body, "\r\n") {
			body, end = body[:len(body)-2], "\r\n"
		} else if strings.HasSuffix(body, "\n") {
			body, end = body[:len(body)-1], "\n"
		}
		b.WriteString(Line(body))
		b.WriteString(end)
	}
	return b.String()
}
