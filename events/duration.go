package events

import (
	"strconv"
	"time"
)

// DefaultRetention is how old a log must be for `st events prune` to
// remove it when no --older-than is given.
const DefaultRetention = 30 * 24 * time.Hour

// FormatDuration writes d compactly for humans: whole days as "30d",
// else Go's form ("1h30m0s").
func FormatDuration(d time.Duration) string {
	day := 24 * time.Hour
	if d > 0 && d%day == 0 {
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	return d.String()
}
