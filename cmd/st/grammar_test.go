package main

import (
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
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

// TestHelpGrammarRendersTheWholeTreesHelp checks, for every command and
// group, by its name and by each alias, that help rendered from the model
// of that command alone is the help the whole tree renders.
func TestHelpGrammarRendersTheWholeTreesHelp(t *testing.T) {
	a := newApp([]string{"st"}, nil, io.Discard, io.Discard, func(string) (string, bool) { return "", false })
	root, err := fullModel(a)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	var visit func(n *kong.Node, path []string)
	visit = func(n *kong.Node, path []string) {
		for _, c := range n.Children {
			if c.Type != kong.CommandNode {
				continue
			}
			for _, name := range append([]string{c.Name}, c.Aliases...) {
				p := append(slices.Clone(path), name)
				narrowed := helpModel(a, p)
				if narrowed == nil {
					t.Errorf("helpModel(%q) finds no command", p)
					continue
				}
				if got, want := verbHelp("st", narrowed), verbHelp("st", c); got != want {
					t.Errorf("help for %q from its own model differs from the whole tree's:\n%s\nwant:\n%s", p, got, want)
				}
				checked++
			}
			visit(c, append(slices.Clone(path), c.Name))
		}
	}
	visit(root, nil)
	if checked < 40 {
		t.Errorf("checked the help of %d commands; the tree has more", checked)
	}
	for _, p := range [][]string{{"bogus"}, {"message", "bogus"}, {""}} {
		if n := helpModel(a, p); n != nil {
			t.Errorf("helpModel(%q) = %q, want none", p, commandPath(n))
		}
	}
}
