package dashboard

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPlainLine: whatever an agent writes in now.md, the fleet's line is
// one line of valid text within its cap.
func FuzzPlainLine(f *testing.F) {
	for _, s := range []string{"## Rewriting…\n", "| a | b |\n|---|---|\n", "```\nx\n", "[a](b) **c** `d`", "- [ ] *x*", "\xff\xfe#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		got := plainLine(src, 40)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > 40 || strings.ContainsAny(got, "\r\n") {
			t.Errorf("plainLine(%q) = %q", src, got)
		}
	})
}
