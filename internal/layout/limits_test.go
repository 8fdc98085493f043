package layout

import (
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/storetest"
)

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

// ReadFileWithin and ReadAllWithin take up to limit bytes and refuse
// more as too large, naming what; a negative limit reads a file whole.
func TestReadWithin(t *testing.T) {
	tr, _ := storetest.Open(t, map[string]string{"f": "0123456789"})
	for _, tt := range []struct {
		limit   int64
		tooBig  bool
		wantMsg string
	}{
		{-1, false, ""},
		{10, false, ""},
		{11, false, ""},
		{9, true, "thing too large: 10 bytes, more than the maximum of 9 bytes"},
		{0, true, "thing too large: 10 bytes, more than the maximum of 0 bytes"},
	} {
		data, err := ReadFileWithin(tr, "f", "thing", tt.limit)
		if tooBig := sterr.CodeOf(err) == sterr.MessageTooLarge; tooBig != tt.tooBig ||
			!tooBig && string(data) != "0123456789" || tooBig && !strings.HasPrefix(err.Error(), tt.wantMsg) {
			t.Errorf("ReadFileWithin(limit %d) = %q, %v", tt.limit, data, err)
		}
		if tt.limit < 0 {
			continue
		}
		data, err = ReadAllWithin(strings.NewReader("0123456789"), "thing", tt.limit)
		want := strings.Replace(tt.wantMsg, "10 bytes, more", "more", 1)
		if tooBig := sterr.CodeOf(err) == sterr.MessageTooLarge; tooBig != tt.tooBig ||
			!tooBig && string(data) != "0123456789" || tooBig && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ReadAllWithin(limit %d) = %q, %v", tt.limit, data, err)
		}
	}
}
