package jsstr

import (
	"math"
	"strconv"
	"testing"
)

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\s", "\n\r\t\b\f\x00\x1f\x7f", "<>&\u2028\u2029", "bad \xff\xfe utf8", "é漢😀", `\u003c`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := Marshal(s)
		if err != nil {
			t.Skip()
		}
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, Marshal %s", s, got, want)
		}
	})
}

func FuzzAppendNumber(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 1796158671881, 1796158671881.123, 1e-7, 1e21, 123456789e15, 5e-324, math.MaxFloat64, 0.1} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		got, ok := AppendNumber(nil, v)
		want, err := Marshal(v)
		if ok != (err == nil) {
			t.Fatalf("AppendNumber(%v) ok=%v, Marshal error %v", v, ok, err)
		}
		if ok && string(got) != string(want) {
			t.Fatalf("AppendNumber(%v) = %s, Marshal %s", v, got, want)
		}
	})
}

func BenchmarkAppendNumber(b *testing.B) {
	buf := make([]byte, 0, 64)
	for _, v := range []float64{1796158671881, 1796158671881.123} {
		b.Run(strconv.FormatFloat(v, 'f', -1, 64), func(b *testing.B) {
			for b.Loop() {
				buf, _ = AppendNumber(buf[:0], v)
			}
		})
	}
}
