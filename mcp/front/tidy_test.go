package front

import "testing"

func TestRoundAge(t *testing.T) {
	for _, c := range []struct {
		ms   float64
		want string
	}{
		{0, "0s"}, {1499, "1s"}, {1500, "2s"}, {59_999, "60s"}, {60_000, "1m"}, {89_999, "1m"},
		{90_000, "2m"}, {3_599_999, "60m"}, {3_600_000, "1h"}, {5_400_000, "2h"},
		{86_399_999, "24h"}, {86_400_000, "1d"}, {129_600_000, "2d"}, {11*60_000 + 10_000, "11m"},
	} {
		if got := roundAge(c.ms); got != c.want {
			t.Errorf("roundAge(%v) = %q, want %q", c.ms, got, c.want)
		}
	}
}
