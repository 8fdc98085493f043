package jsstr

import (
	"bytes"
	"encoding/json"
	"maps"
	"testing"
	"unicode"
)

func TestIsDigits(t *testing.T) {
	tests := map[string]bool{"0": true, "1795966371663": true, "": false, "-1": false, "+1": false,
		"1.5": false, " 1": false, "1\n": false, "１": false, "12a": false}
	for in, want := range tests {
		if got := IsDigits(in); got != want {
			t.Errorf("IsDigits(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestIsSpace(t *testing.T) {
	// JavaScript's \s: WhiteSpace plus LineTerminator.
	want := map[rune]bool{
		'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true,
		0xa0: true, 0x1680: true, 0x2028: true, 0x2029: true, 0x202f: true,
		0x205f: true, 0x3000: true, 0xfeff: true,
	}
	for r := rune(0x2000); r <= 0x200a; r++ {
		want[r] = true
	}
	for r := rune(0); r <= 0x10ffff; r++ {
		if got := IsSpace(r); got != want[r] {
			t.Errorf("IsSpace(%U) = %v, want %v", r, got, want[r])
		}
	}
	// Not whitespace in JavaScript although Go's unicode.IsSpace says so.
	for _, r := range []rune{0x85, 0x180e, 0x200b} {
		if IsSpace(r) {
			t.Errorf("IsSpace(%U) = true", r)
		}
	}
	_ = unicode.IsSpace
}

func TestTrim(t *testing.T) {
	if got := TrimSpace("\u3000\ufeff a b \u2028\t"); got != "a b" {
		t.Errorf("TrimSpace = %q", got)
	}
	if got := TrimRightSpace("  a \n\n"); got != "  a" {
		t.Errorf("TrimRightSpace = %q", got)
	}
	if got := TrimSpace("\u0085x\u200b"); got != "\u0085x\u200b" {
		t.Errorf("TrimSpace trimmed non-JS space: %q", got)
	}
}

func TestMarshal(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{"<a>&b", `"<a>&b"`},
		{"\u2028\u2029", "\"\u2028\u2029\""},
		{`\u2028`, `"\\u2028"`}, // an escaped backslash before u2028 stays escaped
		{"\\\u2028", "\"\\\\\u2028\""},
		{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\"\\", `"\"\\"`},
		{"\x7f", "\"\x7f\""},
		{"é😀", `"é😀"`},
		{"\xff", `"\ufffd"`},
		{[]any{1, 2.5, nil, true}, `[1,2.5,null,true]`},
		{map[string]any{"a": "<"}, `{"a":"<"}`},
		{"\x0b\x1b", `"\u000b\u001b"`},
	}
	for _, tt := range tests {
		got, err := Marshal(tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal(%q) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

func TestMarshalIndent(t *testing.T) {
	got, err := MarshalIndent(map[string]any{"k": []any{"<\u2028>"}, "e": []any{}})
	want := "{\n  \"e\": [],\n  \"k\": [\n    \"<\u2028>\"\n  ]\n}"
	if err != nil || string(got) != want {
		t.Errorf("MarshalIndent = %q, %v; want %q", got, err, want)
	}
}

// FuzzUndoGoEscapes: the rewritten JSON decodes to the same value and has
// no escapes JSON.stringify would not write.
func FuzzUndoGoEscapes(f *testing.F) {
	for _, s := range []string{"<b>&</b>", "a\u2028b\u2029", `\u003c`, `\\u003c`, "\\", "\x00\x1f\"", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			t.Skip()
		}
		out := UndoGoEscapes(in)
		var back map[string]string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s → %s: %v", in, out, err)
		}
		var want map[string]string
		json.Unmarshal(in, &want)
		if !maps.Equal(back, want) {
			t.Fatalf("%s → %s decodes to %q, want %q", in, out, back, want)
		}
		for _, e := range []string{`\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029`} {
			if bytes.Contains(bytes.ReplaceAll(out, []byte(`\\`), nil), []byte(e)) {
				t.Fatalf("%s still has %s", out, e)
			}
		}
	})
}
