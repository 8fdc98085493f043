package duration

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/sterr"
)

func TestParse(t *testing.T) {
	day := 24 * time.Hour
	good := []struct {
		in   string
		want time.Duration
	}{
		{"90s", 90 * time.Second}, {"1.5h", 90 * time.Minute}, {"30d", 30 * day}, {"2w", 14 * day},
		{"12h", 12 * time.Hour}, {"250ms", 250 * time.Millisecond}, {"0d", 0}, {"5.0d", 5 * day},
		{"1h30m", 90 * time.Minute}, {"2w3d", 17 * day}, {"007m", 7 * time.Minute},
		{"99999999999999d", math.MaxInt64},
	}
	for _, tt := range good {
		got, err := Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	bad := []string{"", "30", "30days", "xy", "-1d", "+1d", "hd", "30D", "1e3s", ".5h", "5.h", "1 h", "1h 30m",
		"h1", "1hh", "1.2.3h", "inf", "NaNh", "1us", "1y", "1h-30m", "1e400"}
	for _, in := range bad {
		_, err := Parse(in)
		var e *sterr.Error
		if !errors.As(err, &e) || e.Code != sterr.InvalidDuration {
			t.Errorf("Parse(%q) = %v, want INVALID_DURATION", in, err)
			continue
		}
		if want := "invalid duration: " + in + " ("; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) error %q, want it to start %q", in, err, want)
		}
	}
}

// FuzzParse: Parse never panics, never returns a negative duration, and
// accepts exactly what re-reading its own pieces accepts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"90s", "1.5h", "1h30m", "30days", "", "-1d", "99999999999999999999w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			return
		}
		if d < 0 {
			t.Fatalf("Parse(%q) = %v < 0", s, d)
		}
		if s == "" || strings.ContainsAny(s, " +-eE") {
			t.Fatalf("Parse(%q) accepted", s)
		}
	})
}

func TestSinceMS(t *testing.T) {
	now := time.UnixMilli(1700007200000)
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1h", 1700003600000, true},
		{"1h30m", 1700001800000, true},
		{"2023-11-14T23:13:20Z", 1700003600000, true},
		{"2023-11-15T00:13:20+01:00", 1700003600000, true},
		{"1700003600000", 1700003600000, true},
		{"0", 0, true},
		{"99999999999999999999", math.MaxInt64, true},
		{"", 0, false},
		{"yesterday", 0, false},
		{"-1h", 0, false},
		{"17e11", 0, false},
		{"2023-11-14", 0, false},
	} {
		got, err := SinceMS(c.in, now)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("SinceMS(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}
