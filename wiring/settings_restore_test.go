package wiring

import (
	"testing"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// FuzzHasComments: never panics, and valid JSON (with "//" or "/*"
// inside its strings) is never taken for a file with comments.
func FuzzHasComments(f *testing.F) {
	for _, s := range []string{`{"a": "http://x"}`, "{\n  // c\n  \"a\": 1 /* d */\n}", `{"a": "\"//"}`, "/*", `{"a": "/*"} // x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := hasComments(data)
		if _, err := jsonobj.ParseKeepNumbers(data); err == nil && got {
			t.Errorf("valid JSON %q taken for one with comments", data)
		}
	})
}

func TestHasComments(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"{\n  // c\n  \"a\": 1 /* d */\n}", true},
		{`{"a": "http://x"}`, false},
		{"{\"a\": \"//\" // trailing\n}", true},
		{"{,} // broken anyway", false},
	} {
		if got := hasComments([]byte(tt.in)); got != tt.want {
			t.Errorf("hasComments(%q) = %v", tt.in, got)
		}
	}
}
