package front

import (
	"math"
	"testing"
)

func TestFrameLimit(t *testing.T) {
	for _, tt := range []struct {
		maxMessage int64
		want       int
	}{
		{0, MaxFrameBytes},
		{1 << 20, MaxFrameBytes},
		{20 << 20, 6*20<<20 + 1<<20},
		{math.MaxInt64, MaxFrameBytes},
	} {
		if got := FrameLimit(tt.maxMessage); got != tt.want {
			t.Errorf("FrameLimit(%d) = %d, want %d", tt.maxMessage, got, tt.want)
		}
	}
}
