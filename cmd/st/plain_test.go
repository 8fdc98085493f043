package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// Every plain form runs the command the grammar path would: kong, given
// the same arguments, fills the same command at the same path.
func TestPlainFormsAsKong(t *testing.T) {
	a := newApp([]string{"st"}, strings.NewReader(""), io.Discard, io.Discard, func(string) (string, bool) { return "", false })
	for _, f := range plainForms {
		args := strings.Fields(f.args)
		grammar, ok := pathGrammar(args)
		if !ok {
			t.Fatalf("%q: not in the grammar", f.args)
		}
		parser, err := newParser(a, grammar)
		if err != nil {
			t.Fatal(err)
		}
		node := child(parser.Model.Node, args[0])
		path, rest := []string{node.Name}, args[1:]
		for len(rest) > 0 && child(node, rest[0]) != nil {
			node = child(node, rest[0])
			path, rest = append(path, node.Name), rest[1:]
		}
		if !node.Leaf() {
			t.Fatalf("%q: %s is not a command", f.args, commandPath(node))
		}
		canonical, help, err := scan(node, rest)
		if err != nil || help {
			t.Fatalf("%q: scan: %v %v", f.args, help, err)
		}
		kctx, err := parser.Parse(append(path, canonical...))
		if err != nil {
			t.Fatalf("%q: %v", f.args, err)
		}
		want := realCommand(kctx.Selected().Target)
		if got := f.command(); !reflect.DeepEqual(got, want) || f.path != commandPath(node) {
			t.Errorf("%q: plain form runs %s %#v; the grammar, %s %#v", f.args, f.path, got, commandPath(node), want)
		}
	}
	if _, ok := plainForm([]string{"status", "--json", "alice"}); ok {
		t.Error("a form with an argument must take the grammar path")
	}
}
