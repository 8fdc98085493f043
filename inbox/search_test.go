package inbox

import (
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/storetest"
)

func TestIndexFold(t *testing.T) {
	tests := []struct {
		s, needle string
		want      int
	}{
		{"Hello World", "world", 6},
		{"hello", "hello", 0},
		{"HELLO", "hello", 0},
		{"say hElLo", "hello", 4},
		{"hell", "hello", -1},
		{"", "x", -1},
		{"tTtThe", "the", 3},
		{"aaaaab", "ab", 4},
		{"xx-yy", "-y", 2},
		{"Grüße aus Köln", "köln", 11},
		{"GRÜSSE", "grüsse", 0},
		{"no", "köln", -1},
	}
	for _, tt := range tests {
		got := indexFold(tt.s, tt.needle)
		if isASCII(tt.needle) && got != tt.want || (got >= 0) != (tt.want >= 0) {
			t.Errorf("indexFold(%q, %q) = %d, want %d", tt.s, tt.needle, got, tt.want)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzIndexFold checks the scan against lower-casing both sides.
func FuzzIndexFold(f *testing.F) {
	f.Add("Hello World", "wor")
	f.Add("tTtThe", "th")
	f.Fuzz(func(t *testing.T, s, needle string) {
		needle = strings.ToLower(needle)
		if needle == "" || !isASCII(needle) || !isASCII(s) {
			return
		}
		if got, want := indexFold(s, needle), strings.Index(strings.ToLower(s), needle); got != want {
			t.Fatalf("indexFold(%q, %q) = %d, want %d", s, needle, got, want)
		}
	})
}

func TestSearch(t *testing.T) {
	msg := func(from, subject, body string) string {
		return "---\nfrom: " + from + "\nsubject: " + subject + "\n---\n" + body
	}
	tr, _ := storetest.Open(t, map[string]string{
		"alice/inbox/1700000000001-aaaaaa.md":   msg("bob", "Parser review", "please look\n"),
		"alice/inbox/1700000000002-bbbbbb.md":   msg("carol", "lunch", "first line\n  the PARSER is slow here  \nlast\n"),
		"alice/inbox/1700000000003-cccccc.md":   msg("parser", "nothing", "no match in the body\n"),
		"alice/archive/1700000000004-dddddd.md": msg("bob", "old", "parser notes\n"),
		"alice/inbox/notes.txt":                 "parser, but not a message",
		"bob/inbox/1700000000005-eeeeee.md":     msg("alice", "re: parser", "ok\n"),
	})
	q := Query{Text: "Parser", Agents: []string{"alice"}, Folders: []string{Inbox}}
	got := Search(tr, q)
	want := []string{"1700000000002-bbbbbb.md: the PARSER is slow here", "1700000000001-aaaaaa.md: Parser review"}
	if len(got) != len(want) {
		t.Fatalf("Search = %+v, want %v", got, want)
	}
	for i, h := range got {
		if h.Filename+": "+h.Line != want[i] {
			t.Errorf("hit %d = %s: %s, want %s", i, h.Filename, h.Line, want[i])
		}
	}
	q.Folders = []string{Inbox, Archive}
	q.Agents = []string{"alice", "bob"}
	if got := Search(tr, q); len(got) != 4 || got[0].Agent != "bob" || got[1].Folder != Archive {
		t.Errorf("all folders and agents: %+v", got)
	}
	q.From = "bob"
	if got := Search(tr, q); len(got) != 2 || got[0].From != "bob" || got[1].From != "bob" {
		t.Errorf("--from bob: %+v", got)
	}
	q.From, q.Since = "", 1700000000004
	if got := Search(tr, q); len(got) != 2 {
		t.Errorf("since: %+v", got)
	}
}

// TestSearchWholeBody: the text is found anywhere in a message up to
// MaxBytes (a listing's head reader stops at the frontmatter of a message
// over 8 KiB, which left such bodies unsearched), and never past it.
func TestSearchWholeBody(t *testing.T) {
	file := "---\nfrom: bob\nsubject: big\n---\n" + strings.Repeat("filler line\n", 1000) + "the Needle is here\n"
	tr, _ := storetest.Open(t, map[string]string{"alice/inbox/1700000000001-aaaaaa.md": file})
	// "needle" ends 9 bytes before the end of the file.
	for _, tt := range []struct {
		max  int64
		want int
	}{{0, 1}, {1 << 20, 1}, {int64(len(file) - 9), 1}, {int64(len(file) - 10), 0}, {2048, 0}} {
		got := Search(tr, Query{Text: "needle", Agents: []string{"alice"}, Folders: []string{Inbox}, MaxBytes: tt.max})
		if len(got) != tt.want || tt.max == 0 && got[0].Line != "the Needle is here" {
			t.Errorf("MaxBytes %d: %+v, want %d hits", tt.max, got, tt.want)
		}
	}
}
