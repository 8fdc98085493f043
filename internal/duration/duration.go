// Package duration reads the durations st's flags take (--older-than,
// --since, --ttl): one grammar and one error for all of them, and the
// one grammar of --since (a duration ago or a point in time).
package duration

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/sterr"
)

// Parse reads a non-negative duration: one or more <number><unit> pairs,
// the number in decimal with an optional fraction, the unit one of ms, s,
// m, h, d (24h) or w (7d): "90s", "1.5h", "30d", "1h30m", "2w3d". Signs,
// exponents and spaces are refused. A duration too long for
// time.Duration (about 292 years) is that maximum.
func Parse(s string) (time.Duration, error) {
	if s == "" {
		return 0, invalid(s)
	}
	total := 0.0
	for rest := s; rest != ""; {
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.') {
			i++
		}
		if i == 0 {
			return 0, invalid(s)
		}
		num := rest[:i]
		f, err := strconv.ParseFloat(num, 64)
		if err != nil && !isRange(err) || num[0] == '.' || num[len(num)-1] == '.' {
			return 0, invalid(s)
		}
		rest = rest[i:]
		j := 0
		for j < len(rest) && rest[j] >= 'a' && rest[j] <= 'z' {
			j++
		}
		unit, ok := unitNanos(rest[:j])
		if !ok {
			return 0, invalid(s)
		}
		rest = rest[j:]
		total += f * unit
	}
	if total >= math.MaxInt64 {
		return math.MaxInt64, nil
	}
	return time.Duration(total), nil
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func unitNanos(u string) (float64, bool) {
	switch u {
	case "ms":
		return 1e6, true
	case "s":
		return 1e9, true
	case "m":
		return 60e9, true
	case "h":
		return 3600e9, true
	case "d":
		return 86400e9, true
	case "w":
		return 7 * 86400e9, true
	}
	return 0, false
}

// invalid is the one error every duration flag gives.
func invalid(s string) error {
	return sterr.New(sterr.InvalidDuration,
		"invalid duration: "+s+" (a number and a unit: 90s, 30m, 1.5h, 7d, 2w, or 1h30m)",
		map[string]any{"value": s})
}

// SinceMS reads the value of a --since flag, the same on every verb: a
// duration before now (30m, 7d, as Parse reads it), a time in RFC 3339
// (2026-12-02T10:00:00Z), or unix milliseconds (digits only; too big for
// int64 reads as its maximum, a time nothing is sent at). It returns the
// time in unix milliseconds.
func SinceMS(s string, now time.Time) (int64, error) {
	if s != "" && strings.Trim(s, "0123456789") == "" {
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return math.MaxInt64, nil
		}
		return ms, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UnixMilli(), nil
	}
	if d, err := Parse(s); err == nil {
		return now.Add(-d).UnixMilli(), nil
	}
	return 0, sterr.New(sterr.InvalidSince,
		"invalid --since: "+s+" (a duration ago like 30m, 1.5h or 7d, a time like 2026-12-02T10:00:00Z, or unix milliseconds)",
		map[string]any{"value": s})
}
