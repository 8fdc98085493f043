package layout

import "testing"

func TestParseMaxMessageBytes(t *testing.T) {
	const def = DefaultMaxMessageBytes
	for _, tt := range []struct {
		in   string
		want int64
	}{
		{"", def}, {"1", 1}, {"4096", 4096}, {"0", def}, {"-5", def}, {"+5", def}, {" 5", def},
		{"1_000", def}, {"0x10", def}, {"1e6", def}, {"99999999999999999999", def}, {"010", 10},
	} {
		if got := ParseMaxMessageBytes(tt.in); got != tt.want {
			t.Errorf("ParseMaxMessageBytes(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
