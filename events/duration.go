package events

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// DefaultRetention is how old a log must be for `st events prune` to
// remove it when no --older-than is given.
const DefaultRetention = 30 * 24 * time.Hour

// ErrDuration is returned by ParseDuration for text it cannot read.
var ErrDuration = errors.New("invalid duration")

// units are the suffixes ParseDuration accepts, longest first.
var units = []struct {
	suffix string
	d      time.Duration
}{
	{"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute},
	{"h", time.Hour}, {"d", 24 * time.Hour}, {"w", 7 * 24 * time.Hour},
}

// ParseDuration reads a non-negative duration written as a number
// (fractions allowed) and a unit among ms, s, m, h, d and w ("90s",
// "1.5h", "30d"), or as a sequence Go's time.ParseDuration accepts
// ("1h30m").
func ParseDuration(s string) (time.Duration, error) {
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok || num == "" || strings.ContainsAny(num, "+-eEinfINFaAnN_xX") {
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || f < 0 || f*float64(u.d) > float64(1<<62) {
			continue
		}
		return time.Duration(f * float64(u.d)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, ErrDuration
	}
	return d, nil
}

// FormatDuration writes d compactly for humans: whole days as "30d",
// else Go's form ("1h30m0s").
func FormatDuration(d time.Duration) string {
	day := 24 * time.Hour
	if d > 0 && d%day == 0 {
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	return d.String()
}
