package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestPathGrammar checks that the narrowed grammar keeps exactly the
// commands on the path and, where the sub-verb is missing or unknown,
// the whole group.
func TestPathGrammar(t *testing.T) {
	tests := []struct {
		args []string
		want string // command fields kept, outermost first; "" = not a command
	}{
		{[]string{"status", "--set", "busy"}, "Status"},
		{[]string{"msg", "send", "bob"}, "Message.Send"},
		{[]string{"message", "archive", "trim"}, "Message.Archive.Trim"},
		{[]string{"message", "archive", "1700000000000-abcdef.md"}, "Message.Archive.Move"},
		{[]string{"message", "archive", "", "x.txt"}, "Message.Archive.Move"},
		{[]string{"members", "--json"}, "Agents"},
		{[]string{"message"}, "Message.*"},
		{[]string{"message", "bogus"}, "Message.*"},
		{[]string{"bogus"}, ""},
		{[]string{""}, ""},
	}
	for _, tt := range tests {
		g, ok := pathGrammar(tt.args)
		got := ""
		if ok {
			got = keptPath(reflect.TypeOf(g).Elem())
		}
		if got != tt.want {
			t.Errorf("pathGrammar(%q) keeps %q, want %q", tt.args, got, tt.want)
		}
		if ok {
			a := newApp([]string{"st"}, nil, io.Discard, io.Discard, func(string) (string, bool) { return "", false })
			if _, err := newParser(a, g); err != nil {
				t.Errorf("pathGrammar(%q): kong rejects the grammar: %v", tt.args, err)
			}
		}
	}
}

// keptPath names the single command field kept at each level, or "*"
// where a level keeps more than one.
func keptPath(t reflect.Type) string {
	var cmds []reflect.StructField
	for i := range t.NumField() {
		if _, ok := t.Field(i).Tag.Lookup("cmd"); ok {
			cmds = append(cmds, t.Field(i))
		}
	}
	switch len(cmds) {
	case 0:
		return ""
	case 1:
		return strings.TrimSuffix(cmds[0].Name+"."+keptPath(cmds[0].Type), ".")
	default:
		return "*"
	}
}
