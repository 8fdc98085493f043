package layout

import (
	"strconv"
	"strings"
)

// Decimal reads a setting that is a plain decimal number: digits with an
// optional fraction ("250", "0.5", "12."), surrounding spaces ignored.
// Anything else (a sign, an exponent, "Inf", "1_000", hex such as
// "0x1p4", which strconv.ParseFloat all accept) is not one: ok is false
// and the caller uses its default.
func Decimal(v string) (n float64, ok bool) {
	v = strings.TrimSpace(v)
	whole, frac, _ := strings.Cut(v, ".")
	if whole+frac == "" || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseFloat(v, 64)
	return n, err == nil
}
