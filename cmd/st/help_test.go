package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

var update = flag.Bool("update", false, "rewrite docs/cli.md from the command tree")

func testModel(t *testing.T) *kong.Node {
	t.Helper()
	a := newApp([]string{"st"}, nil, io.Discard, io.Discard, func(string) (string, bool) { return "", false })
	root, err := fullModel(a)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestGrammarDocumented walks the whole tree: every command, flag and
// argument has help text, and every verb a user runs has at least two
// examples, so that help, completions and docs/cli.md have something to
// say about each of them.
func TestGrammarDocumented(t *testing.T) {
	walkCommands(testModel(t), func(n *kong.Node) {
		path := commandPath(n)
		if n.Hidden {
			path += " (default verb " + n.Name + ")"
		}
		if strings.TrimSpace(n.Help) == "" {
			t.Errorf("st %s: no help:\"…\" on the command", path)
		}
		for _, f := range n.Flags {
			if strings.TrimSpace(f.Help) == "" {
				t.Errorf("st %s --%s: no help:\"…\"", path, f.Name)
			}
		}
		for _, p := range n.Positional {
			if strings.TrimSpace(p.Help) == "" {
				t.Errorf("st %s <%s>: no help:\"…\"", path, p.Name)
			}
		}
		if n.Leaf() && len(ownExamples(n)) < 2 {
			t.Errorf("st %s: fewer than two examples (add an examples() method)", path)
		}
		for _, v := range envVars(n) {
			if envMeaning(v) == "" {
				t.Errorf("st %s reads %s, which envMeaning does not describe", path, v)
			}
		}
	})
}

// TestCLIReference fails when docs/cli.md is not what the tree renders.
func TestCLIReference(t *testing.T) {
	want := reference(testModel(t))
	path := filepath.Join("..", "..", "docs", "cli.md")
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/cli.md is stale: run `go test ./cmd/st -run TestCLIReference -update`")
	}
}
