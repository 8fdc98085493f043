package jsonobj

import (
	"bytes"
	"strings"
	"testing"
)

func TestRoundTripKeepsOrder(t *testing.T) {
	tests := []struct{ in, compact string }{
		{`{"z":1,"a":2,"m":{"y":true,"b":null}}`, `{"z":1,"a":2,"m":{"y":true,"b":null}}`},
		{` { "b" : [1, 2.50, -0, 1e2, 1e21, 1.5e-7, "x"] } `, `{"b":[1,2.5,0,100,1e+21,1.5e-7,"x"]}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"s":"<&>\u2028\u0001\"\\"}`, "{\"s\":\"<&>\u2028\\u0001\\\"\\\\\"}"},
		{`{"big":1e400}`, `{"big":null}`},
		{`{}`, `{}`},
		{`[]`, `[]`},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.in))
		if err != nil {
			t.Errorf("Parse(%s): %v", tt.in, err)
			continue
		}
		got, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.compact {
			t.Errorf("Marshal(Parse(%s)) = %s, want %s", tt.in, got, tt.compact)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{``, `   `, `{`, `{"a" 1}`, `{"a":1,}`, `{"a":1} x`, `{} {}`, `[1,]`, "\ufeff{}", `{a:1}`, `nul`} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", in)
		}
	}
	if _, err := ParseObject([]byte(`[1]`)); err != ErrNotObject {
		t.Errorf("ParseObject([1]) = %v, want ErrNotObject", err)
	}
	if _, err := Parse([]byte(``)); err == nil || !strings.Contains(err.Error(), "unexpected end") {
		t.Errorf("Parse(empty) = %v, want unexpected end", err)
	}
}

func TestSetAndIndent(t *testing.T) {
	o, err := ParseObject([]byte(`{"mcpServers":{"a":{"x":1},"st":{"old":true},"b":{}},"z":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	servers, _ := o.Get("mcpServers")
	servers.(*Object).Set("st", New().Set("type", "stdio").Set("args", []any{"mcp"}))
	o.Set("added", "last")
	got, err := MarshalIndent(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "mcpServers": {
    "a": {
      "x": 1
    },
    "st": {
      "type": "stdio",
      "args": [
        "mcp"
      ]
    },
    "b": {}
  },
  "z": [],
  "added": "last"
}`
	if string(got) != want {
		t.Errorf("MarshalIndent =\n%s\nwant\n%s", got, want)
	}
}

func TestFormatNumber(t *testing.T) {
	tests := map[float64]string{0: "0", 1: "1", -2.5: "-2.5", 1e20: "100000000000000000000", 1e21: "1e+21",
		1e-6: "0.000001", 1e-7: "1e-7", 123456789012345680000: "123456789012345680000", 0.30000000000000004: "0.30000000000000004"}
	for f, want := range tests {
		if got := FormatNumber(f); got != want {
			t.Errorf("FormatNumber(%v) = %s, want %s", f, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":null}],"c":"d"}`))
	f.Add([]byte(`[1e400, -0, "\u2028"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		v2, err := Parse(out)
		if err != nil {
			t.Fatalf("re-Parse(%s): %v", out, err)
		}
		out2, _ := Marshal(v2)
		if string(out) != string(out2) {
			t.Fatalf("not stable: %s vs %s", out, out2)
		}
	})
}

// indentFile encodes v as a settings file is written:
// JSON.stringify(v, null, 2) and a newline.
func indentFile(t *testing.T, v any) []byte {
	t.Helper()
	data, err := MarshalIndent(v)
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

func TestKeepNumbersRoundTrip(t *testing.T) {
	in := `{
  "b": 1.50,
  "a": [
    true,
    null,
    {},
    []
  ],
  "s": "<é>\n\u2028"
}
`
	v, err := ParseKeepNumbers([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(indentFile(t, v)); got != strings.Replace(in, `\u2028`, "\u2028", 1) {
		t.Errorf("MarshalIndent(ParseKeepNumbers(x)) =\n%s", got)
	}
	v, _ = ParseKeepNumbers([]byte(`{"k":1,"j":2,"k":3}`))
	if got, want := string(indentFile(t, v)), "{\n  \"k\": 3,\n  \"j\": 2\n}\n"; got != want {
		t.Errorf("duplicate keys: %q, want %q", got, want)
	}
	for _, bad := range []string{"", "{", `{"a":}`, "[1,]", "{} {}", "nul"} {
		if _, err := ParseKeepNumbers([]byte(bad)); err == nil {
			t.Errorf("ParseKeepNumbers(%q) succeeded", bad)
		}
	}
}

func FuzzParseKeepNumbers(f *testing.F) {
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"st hook codex-stop"}]}]}}`))
	f.Add([]byte(`[1, "x", null, true, {"a": -0.5e3}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseKeepNumbers(data)
		if err != nil {
			return
		}
		out := indentFile(t, v)
		v2, err := ParseKeepNumbers(out)
		if err != nil {
			t.Fatalf("MarshalIndent output does not parse: %v\n%s", err, out)
		}
		if !bytes.Equal(indentFile(t, v2), out) {
			t.Errorf("MarshalIndent is not stable for %q", data)
		}
	})
}
