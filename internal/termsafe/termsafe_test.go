package termsafe

import "testing"

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain text, ünïcödé — ok", "plain text, ünïcödé — ok"},
		{"a\tb", "a\tb"},
		{"line\nforged  exclusive  x", `line\nforged  exclusive  x`},
		{"cr\r\n", `cr\r\n`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"bell\a del\x7f", `bell\x07 del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"ok \ufffd kept", "ok \ufffd kept"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestControl(t *testing.T) {
	for _, s := range []string{"a\nb", "\x1b[31m", "tab\there", "\u0085", "\xff"} {
		if _, ok := Control(s); !ok {
			t.Errorf("Control(%q) found nothing", s)
		}
	}
	for _, s := range []string{"", "plain — text", "\ufffd"} {
		if r, ok := Control(s); ok {
			t.Errorf("Control(%q) = %q", s, r)
		}
	}
}

func FuzzLine(f *testing.F) {
	f.Add("a\nb\x1b[31m\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		if _, ok := Control(out); ok {
			for _, r := range out {
				if r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0) {
					t.Fatalf("Line(%q) = %q keeps a control character", s, out)
				}
			}
		}
	})
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"two\nlines\n", "two\nlines\n"},
		{"crlf\r\nend", "crlf\r\nend"},
		{"tab\tkept\n", "tab\tkept\n"},
		{"over\rwrite\n", `over\rwrite` + "\n"},
		{"\x1b]0;title\a\nnext\n", `\x1b]0;title\x07` + "\nnext\n"},
		{"bad \xff\n", `bad \xff` + "\n"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
