package main

import (
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// leaves is every command without sub-verbs in the whole grammar, with
// the verbs that name it.
func leaves(t testing.TB) map[string]*kong.Node {
	t.Helper()
	root, err := fullModel(testApp())
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]*kong.Node{}
	var visit func(n *kong.Node, path []string)
	visit = func(n *kong.Node, path []string) {
		for _, c := range n.Children {
			if c.Type != kong.CommandNode {
				continue
			}
			if c.Leaf() {
				found[strings.Join(append(path, c.Name), " ")] = c
			} else {
				visit(c, append(path, c.Name))
			}
		}
	}
	visit(root, nil)
	return found
}

func testApp() *app {
	return newApp([]string{"st"}, strings.NewReader(""), io.Discard, io.Discard, func(string) (string, bool) { return "", false })
}

// kongSpec is the spec as kong's model of the command has it.
func kongSpec(n *kong.Node) leafSpec {
	s := leafSpec{loose: n.Tag.Has("loose"), extra: n.Tag.Get("extra")}
	for _, f := range n.Flags {
		s.flags = append(s.flags, flagSpec{name: f.Name, short: byte(f.Short), aliases: f.Aliases,
			isBool: f.IsBool(), missing: f.Tag.Get("missing"), digits: f.Tag.Get("digits")})
	}
	for _, p := range n.Positional {
		s.positionals = append(s.positionals, 0)
		s.unlimited = s.unlimited || p.IsSlice()
	}
	return s
}

// The direct path reads each command's flags and arguments from its
// struct as kong does, and finds the command walk finds.
func TestLeafSpecsAsKong(t *testing.T) {
	all := leaves(t)
	if len(all) < 50 {
		t.Fatalf("only %d commands in the grammar", len(all))
	}
	for path, n := range all {
		d, ok := findDirect(strings.Fields(path))
		if !ok {
			t.Errorf("%s: not found by its verbs", path)
			continue
		}
		if d.typ != n.Target.Type() || d.path != commandPath(n) {
			t.Errorf("%s: found %s %v, kong %s %v", path, d.path, d.typ, commandPath(n), n.Target.Type())
			continue
		}
		want := kongSpec(n)
		for i, f := range d.spec.flags {
			if i < len(n.Flags) && d.typ.Field(f.field).Type != n.Flags[i].Target.Type() {
				t.Errorf("%s --%s: field %s, kong's is a %v", path, f.name, d.typ.Field(f.field).Name, n.Flags[i].Target.Type())
			}
			d.spec.flags[i].field = 0
		}
		for i, field := range d.spec.positionals {
			_, optional := d.typ.Field(field).Tag.Lookup("optional")
			if i < len(n.Positional) && optional == n.Positional[i].Required {
				t.Errorf("%s: argument %d optional %v, kong's required %v", path, i, optional, n.Positional[i].Required)
			}
			d.spec.positionals[i] = 0
		}
		if !reflect.DeepEqual(d.spec, want) {
			t.Errorf("%s:\n direct %+v\n kong   %+v", path, d.spec, want)
		}
	}
}

func TestKongName(t *testing.T) {
	for field, want := range map[string]string{
		"JSON": "json", "InReplyTo": "in-reply-to", "JSONOut": "json-out", "Max2": "max-2",
		"GL11Version": "gl-11-version", "AString": "a-string", "Full": "full", "OlderThan": "older-than",
	} {
		if got := kongName(field); got != want {
			t.Errorf("kongName(%q) = %q, want %q", field, got, want)
		}
	}
}

// Every command typed with random flags and arguments (a group's default
// verb also without its name, a verb also by its alias): where the direct path fills the command, kong fills the same one at the same path, and
// where it refuses the arguments, the grammar path refuses them with the
// same error.
func TestDirectAsKong(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	perCommand := 40
	if testing.Short() {
		perCommand = 10
	}
	direct, total := 0, 0
	for path, n := range leaves(t) {
		for i := range perCommand {
			args := strings.Fields(path)
			if n.Parent.DefaultCmd == n && i%2 == 1 {
				args = args[:len(args)-1] // a group's default verb, not named
			}
			if aliases := topVerb(n).Aliases; len(aliases) > 0 && i%3 == 2 {
				args[0] = aliases[0] // msg for message, members for agents
			}
			if i > 2 {
				args = append(args, randomArgs(rng, n)...)
			}
			total++
			if compareWithKong(t, args) {
				direct++
			} else if i < 3 && !hasRequiredArg(n) {
				t.Errorf("%q: the bare command takes the grammar path", args)
			}
		}
	}
	if direct < total/3 {
		t.Errorf("the direct path took %d of %d commands", direct, total)
	}
}

// topVerb is the verb typed first on the way to n.
func topVerb(n *kong.Node) *kong.Node {
	for n.Parent != nil && n.Parent.Parent != nil {
		n = n.Parent
	}
	return n
}

func hasRequiredArg(n *kong.Node) bool {
	return slices.ContainsFunc(n.Positional, func(p *kong.Positional) bool { return p.Required })
}

// randomArgs are up to six words: the command's own flags in each form,
// values (one not UTF-8), words that look like flags, "--", "-" and help.
func randomArgs(rng *rand.Rand, n *kong.Node) []string {
	words := []string{"x", "", "-", "--", "a=b", "bob", "1796454586171-emgvcn.md", "-x", "--nope", "ünï", "\xde\xdf", "42", "--json", "help"}
	if rng.IntN(20) == 0 {
		words = append(words, "-h", "--help")
	}
	for _, f := range n.Flags {
		words = append(words, "--"+f.Name, "--"+f.Name+"=v", "--"+f.Name+"=")
		if f.Short != 0 {
			words = append(words, "-"+string(f.Short))
		}
		for _, alias := range f.Aliases {
			words = append(words, "--"+alias)
		}
	}
	args := make([]string, rng.IntN(7))
	for i := range args {
		args[i] = words[rng.IntN(len(words))]
	}
	return args
}

// compareWithKong runs args through both paths and reports whether the
// direct path answered.
func compareWithKong(t *testing.T, args []string) bool {
	t.Helper()
	path, cmd, ok, err := testApp().directCommand(args)
	if !ok {
		return false
	}
	kpath, kcmd, kerr := testApp().grammarCommand(args)
	switch {
	case err != nil && (kerr == nil || kerr.Error() != err.Error()):
		t.Errorf("%q: direct refuses (%v), the grammar path: %v", args, err, kerr)
	case err == nil && kerr != nil:
		t.Errorf("%q: direct fills %#v, the grammar path refuses: %v", args, cmd, kerr)
	case err == nil && (path != kpath || !reflect.DeepEqual(cmd, kcmd)):
		t.Errorf("%q:\n direct  %s %#v\n grammar %s %#v", args, path, cmd, kpath, kcmd)
	}
	return true
}

func FuzzDirectAsKong(f *testing.F) {
	for _, seed := range []string{"status", "message\x00send\x00bob\x00-m\x00hi", "msg\x00read\x00alice\x00x.md",
		"message\x00archive\x00x.md", "context\x00append\x00--decision=d\x00--why\x00w", "events\x00--json", "sync\x00--\x00-x"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		if _, isCommand := commandField(reflect.TypeFor[cli](), args[0]); !isCommand {
			return // a plugin's name: the grammar path would run it
		}
		compareWithKong(t, args)
	})
}
