package message

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseLines(t *testing.T) {
	// One frontmatter line each, §3.5 table plus edge cases.
	tests := []struct {
		line      string
		key, want string
		ok        bool
	}{
		{`subject: "re: hello"`, "subject", "re: hello", true},
		{"  subject :  hi there  ", "subject", "hi there", true},
		{"\tsubject\t:\thi\t", "subject", "hi", true},
		{`subject: "a\qb\"c"`, "subject", `aqb"c`, true},
		{`subject: 'it''s'`, "subject", "it''s", true},
		{`subject: "`, "subject", `"`, true},
		{`subject: '`, "subject", `'`, true},
		{`subject: ""`, "subject", "", true},
		{`subject: ''`, "subject", "", true},
		{`subject: "a\nb\tc\rd\\e"`, "subject", "a\nb\tc\rd\\e", true},
		{`subject: "trailing\"`, "subject", `trailing\`, true},
		{`subject: 'a\nb'`, "subject", `a\nb`, true},
		{`subject: "a" b`, "subject", `"a" b`, true},
		{`tags: [a, "b c"]`, "tags", `[a, "b c"]`, true},
		{"subject: a: b", "subject", "a: b", true},
		{"subject:", "subject", "", true},
		{"a_B-9: x", "a_B-9", "x", true},
		{"# a comment", "", "", false},
		{"   # indented comment: x", "", "", false},
		{"not a pair", "", "", false},
		{"x.y: 1", "", "", false},
		{": novalue", "", "", false},
		{"", "", "", false},
		{" \t ", "", "", false},
		{"sub ject: x", "", "", false},
	}
	for _, tt := range tests {
		fields, _, ok := Parse("---\n" + tt.line + "\n---\n")
		if !ok {
			t.Fatalf("Parse(%q): no frontmatter", tt.line)
		}
		got, has := fields[tt.key]
		if has != tt.ok || got != tt.want {
			t.Errorf("line %q: fields %q, want %q=%q (present %v)", tt.line, fields, tt.key, tt.want, tt.ok)
		}
		if !tt.ok && len(fields) != 0 {
			t.Errorf("line %q: got fields %q, want none", tt.line, fields)
		}
	}
}

func TestParseDocuments(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		fields Fields
		body   string
		ok     bool
	}{
		{"empty", "", Fields{}, "", false},
		{"plain", "hello\n", Fields{}, "hello\n", false},
		{"basic", "---\nfrom: alice\nsubject: s\n---\nhi\n", Fields{"from": "alice", "subject": "s"}, "hi\n", true},
		{"no body", "---\nfrom: a\n---\n", Fields{"from": "a"}, "", true},
		{"closing fence at EOF", "---\nfrom: a\n---", Fields{"from": "a"}, "", true},
		{"empty frontmatter", "---\n---\nbody", Fields{}, "body", true},
		{"unclosed", "---\nfrom: a\nbody\n", Fields{}, "---\nfrom: a\nbody\n", false},
		{"only opening", "---\n", Fields{}, "---\n", false},
		{"only fence no newline", "---", Fields{}, "---", false},
		{"fence not on line 1", "\n---\nfrom: a\n---\nx", Fields{}, "\n---\nfrom: a\n---\nx", false},
		{"CRLF", "---\r\nfrom: a\r\n---\r\nhi\r\n", Fields{}, "---\r\nfrom: a\r\n---\r\nhi\r\n", false},
		{"CR in value drops the pair", "---\nfrom: a\r\nsubject: s\n---\n", Fields{"subject": "s"}, "", true},
		{"U+2028 and U+2029 in a value are kept", "---\nfrom: a\u2028b\nsubject: \"\u2029\"\n---\n", Fields{"from": "a\u2028b", "subject": "\u2029"}, "", true},
		{"fence with trailing space is not a fence", "---\nfrom: a\n--- \n---\nx", Fields{"from": "a"}, "x", true},
		{"first closing fence wins", "---\nfrom: a\n---\n---\nb\n", Fields{"from": "a"}, "---\nb\n", true},
		{"duplicate key: later wins", "---\nfrom: a\nfrom: b\n---\n", Fields{"from": "b"}, "", true},
		{"comments and blanks", "---\n# c\n\n  \nfrom: a\n---\n", Fields{"from": "a"}, "", true},
		{"body keeps CRLF", "---\nfrom: a\n---\nx\r\ny", Fields{"from": "a"}, "x\r\ny", true},
		{"binary body", "---\nfrom: a\n---\n\x00\x01\x80\xff", Fields{"from": "a"}, "\x00\x01\x80\xff", true},
		{"BOM prevents frontmatter", "\uFEFF---\nfrom: a\n---\n", Fields{}, "\uFEFF---\nfrom: a\n---\n", false},
	}
	for _, tt := range tests {
		fields, body, ok := Parse(tt.text)
		if ok != tt.ok || body != tt.body || !reflect.DeepEqual(fields, tt.fields) {
			t.Errorf("%s: Parse(%q) = %q, %q, %v; want %q, %q, %v", tt.name, tt.text, fields, body, ok, tt.fields, tt.body, tt.ok)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		pairs []Pair
		body  string
		want  string
	}{
		{[]Pair{{"from", "alice"}, {"subject", "s"}}, "hi\n", "---\nfrom: alice\nsubject: s\n---\nhi\n"},
		{[]Pair{{"in-reply-to", "1714826789012-abcdef.md"}}, "", "---\nin-reply-to: 1714826789012-abcdef.md\n---\n"},
		{[]Pair{{"subject", "hello world"}}, "", "---\nsubject: \"hello world\"\n---\n"},
		{[]Pair{{"subject", "re: hello"}}, "", "---\nsubject: \"re: hello\"\n---\n"},
		{[]Pair{{"url", "https://x.y/z"}}, "", "---\nurl: \"https://x.y/z\"\n---\n"},
		{[]Pair{{"subject", ""}}, "", "---\nsubject: \"\"\n---\n"},
		{[]Pair{{"subject", "a\\b\"c\nd\re\tf"}}, "", "---\nsubject: \"a\\\\b\\\"c\\nd\\re\\tf\"\n---\n"},
		{[]Pair{{"subject", `\n`}}, "", "---\nsubject: \"\\\\n\"\n---\n"},
		{[]Pair{{"subject", "A_b.c-9"}}, "", "---\nsubject: A_b.c-9\n---\n"},
		{[]Pair{{"subject", "é"}}, "", "---\nsubject: \"é\"\n---\n"},
		{[]Pair{{"tags", []string{"review", "planning"}}}, "", "---\ntags: [review, planning]\n---\n"},
		{[]Pair{{"tags", []string{"a", "b c", "d"}}}, "", "---\ntags: [a, \"b c\", d]\n---\n"},
		{[]Pair{{"tags", []string{}}}, "", "---\ntags: []\n---\n"},
		{nil, "x", "---\n---\nx"},
	}
	for _, tt := range tests {
		if got := string(Format(tt.pairs, []byte(tt.body))); got != tt.want {
			t.Errorf("Format(%v, %q) = %q, want %q", tt.pairs, tt.body, got, tt.want)
		}
	}
}

func TestFormatParseRoundTrip(t *testing.T) {
	values := []string{"s", "hello world", "re: hello", `a"b`, `a\b`, "a\nb", "a\tb\rc", "", `\`, `"`, "'x'", "x: y", "#hash", "  lead", "é ü 😀"}
	for _, v := range values {
		text := string(Format([]Pair{{"subject", v}}, []byte("body")))
		fields, body, ok := Parse(text)
		// Leading/trailing spaces are cut before unwrapping only outside quotes,
		// so every quoted value round-trips.
		if !ok || fields["subject"] != v || body != "body" {
			t.Errorf("round trip %q: got %q body %q ok %v (file %q)", v, fields["subject"], body, ok, text)
		}
	}
}

func TestMessageBytes(t *testing.T) {
	tests := []struct {
		m    Message
		want string
	}{
		{Message{From: "alice", Subject: "s", Body: []byte("hi\n")}, "---\nfrom: alice\nsubject: s\n---\nhi\n"},
		{Message{From: "alice", Body: []byte("line1\nline2\n")}, "---\nfrom: alice\n---\nline1\nline2\n"},
		{Message{From: "alice", Body: []byte("no-newline")}, "---\nfrom: alice\n---\nno-newline\n"},
		{Message{From: "alice", Body: []byte{0, 1, 0x80, 0xff}}, "---\nfrom: alice\n---\n\x00\x01\x80\xff\n"},
		{Message{From: "alice", Subject: "re: hello", InReplyTo: "1714826789012-abcdef.md", Tags: []string{"review", "needs work"}, Priority: "high", Body: []byte("body text\n")},
			"---\nfrom: alice\nsubject: \"re: hello\"\nin-reply-to: 1714826789012-abcdef.md\ntags: [review, \"needs work\"]\npriority: high\n---\nbody text\n"},
		{Message{From: "alice", Tags: nil, Body: []byte("x\n")}, "---\nfrom: alice\n---\nx\n"},
		{Message{From: "alice", Body: nil}, "---\nfrom: alice\n---\n\n"},
	}
	for _, tt := range tests {
		if got := string(tt.m.Bytes()); got != tt.want {
			t.Errorf("Bytes() = %q, want %q", got, tt.want)
		}
	}
}

func TestSplitTags(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"review, planning", []string{"review", "planning"}},
		{"  a , b  , c", []string{"a", "b", "c"}},
		{"a,,b", []string{"a", "b"}},
		{"  ,  ,", nil},
		{"", nil},
		{"one", []string{"one"}},
		{"b c,d", []string{"b c", "d"}},
	}
	for _, tt := range tests {
		if got := SplitTags(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitTags(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestReadTags(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"[review, planning]", []string{"review", "planning"}},
		{`[a, "b c", d]`, []string{"a", "b c", "d"}},
		{`['x', "y"]`, []string{"x", "y"}},
		{"a, b", []string{"a", "b"}},
		{"[]", []string{}},
		{"", []string{}},
		{"[[a]]", []string{"[a]"}},
		{`["a\"b"]`, []string{`a\"b`}},
		{`[""]`, []string{}},
		{`["]`, []string{`"`}},
		{"[ a ,, b ]", []string{"a", "b"}},
	}
	for _, tt := range tests {
		got := ReadTags(tt.in)
		if got == nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ReadTags(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
	// Tags written by Format read back, unless they hold a comma or quotes.
	for _, tags := range [][]string{{"a"}, {"review", "needs work"}, {"x.y", "z-1"}} {
		fields, _, _ := Parse(string(Format([]Pair{{"tags", tags}}, nil)))
		if got := ReadTags(fields["tags"]); !reflect.DeepEqual(got, tags) {
			t.Errorf("tags %q read back as %q", tags, got)
		}
	}
}

func TestValidPriority(t *testing.T) {
	for p, want := range map[string]bool{"low": true, "normal": true, "high": true, "": false, "urgent": false, "HIGH": false, " low": false} {
		if got := ValidPriority(p); got != want {
			t.Errorf("ValidPriority(%q) = %v, want %v", p, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "---\n---\n", "---\nfrom: a\n---\nhi\n", "---\r\nx: y\r\n---\r\n", "---\nsubject: \"a\\qb\\\"c\"\n---\n", "---\nfrom: 'x\n"} {
		f.Add(s, "v", "body")
	}
	f.Fuzz(func(t *testing.T, text, value, body string) {
		fields, b, ok := Parse(text)
		if fields == nil {
			t.Fatal("nil fields")
		}
		if !ok && (b != text || len(fields) != 0) {
			t.Fatalf("untyped Parse(%q) = %q, %q", text, fields, b)
		}
		if ok && !strings.HasSuffix(text, b) {
			t.Fatalf("body %q is not a suffix of %q", b, text)
		}
		// Every value round-trips, U+2028 and U+2029 included (they
		// used to be written but read back as no value).
		out := Format([]Pair{{"from", "alice"}, {"subject", value}, {"tags", []string{value}}}, []byte(body))
		got, gotBody, ok := Parse(string(out))
		if !ok || got["subject"] != value || got["from"] != "alice" || gotBody != body {
			t.Fatalf("round trip of %q/%q: %q, %q, %v", value, body, got, gotBody, ok)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	text := string(Message{From: "alice", Subject: "re: hello", InReplyTo: "1714826789012-abcdef.md", Tags: []string{"review", "needs work"}, Priority: "high", Body: []byte(strings.Repeat("body text\n", 20))}.Bytes())
	b.ReportAllocs()
	for b.Loop() {
		if f, _, ok := Parse(text); !ok || f["from"] != "alice" {
			b.Fatal("parse")
		}
	}
}

func BenchmarkBytes(b *testing.B) {
	m := Message{From: "alice", Subject: "re: hello", Tags: []string{"review", "needs work"}, Body: []byte("body\n")}
	b.ReportAllocs()
	for b.Loop() {
		m.Bytes()
	}
}

// FuzzScan checks Scan against the line-by-line reading Parse was first
// written as: split at each newline until a line is exactly "---".
func FuzzScan(f *testing.F) {
	for _, s := range []string{"", "---\n---", "---\n---\n", "---\nfrom: a\nfrom: b\n---\nhi\n", "---\n\n# c\nx: 1\n---", "---\nfrom: a\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var got []string
		body, ok := Scan(text, func(k, v string) { got = append(got, k, v) })
		var want []string
		wantBody, wantOK := text, false
		if rest, found := strings.CutPrefix(text, "---\n"); found {
			for {
				line, after, more := strings.Cut(rest, "\n")
				if line == "---" {
					wantBody, wantOK = after, true
					break
				}
				if !more {
					want = nil
					break
				}
				if k, v, ok := parseLine(line); ok {
					want = append(want, k, v)
				}
				rest = after
			}
		}
		if !wantOK {
			want = nil
		}
		if ok != wantOK || body != wantBody || !slices.Equal(got, want) {
			t.Fatalf("Scan(%q) = %q, %q, %v; want %q, %q, %v", text, got, body, ok, want, wantBody, wantOK)
		}
	})
}

// TestTrimBlank: the hand-written trims are strings.TrimLeft and
// TrimRight with the cutset " \t".
func TestTrimBlank(t *testing.T) {
	for _, s := range []string{"", " ", "\t", " \t x \t ", "x", "  x", "x  ", "\u00a0x\u00a0", "\n x \n", " \t\t "} {
		if got, want := trimBlankLeft(s), strings.TrimLeft(s, " \t"); got != want {
			t.Errorf("trimBlankLeft(%q) = %q, want %q", s, got, want)
		}
		if got, want := trimBlankRight(s), strings.TrimRight(s, " \t"); got != want {
			t.Errorf("trimBlankRight(%q) = %q, want %q", s, got, want)
		}
	}
}
