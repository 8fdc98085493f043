package main

import (
	"math"
	"time"

	"github.com/smalltalk-go/st/internal/duration"
)

// positiveInterval reads a serve loop's --interval: a duration in the
// grammar every duration flag takes (5s, 2m, 1.5h: duration.Parse), or a
// plain number of unit, as the flag always took (seconds, fractions
// allowed). ok is false for anything else and for zero or less; a tiny
// positive number may round to 0 ms, which the caller's floor lifts.
func positiveInterval(v string, unit time.Duration) (d time.Duration, ok bool) {
	if s, isNum := jsNumber(v); isNum {
		if !(s > 0) || math.IsInf(s, 0) {
			return 0, false
		}
		// Whole milliseconds, halves rounding up (Math.round).
		ms := math.Floor(s*float64(unit)/float64(time.Millisecond) + 0.5)
		return time.Duration(min(ms, float64(math.MaxInt64/int64(time.Millisecond)))) * time.Millisecond, true
	}
	d, err := duration.Parse(v)
	return d, err == nil && d > 0
}
