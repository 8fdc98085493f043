package reserve

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in, want string // want "" means refused
	}{
		{"src/a.go", "src/a.go"},
		{"src/", "src/**"},
		{"src/**", "src/**"},
		{"src/**/", "src/**"},
		{"src/**/**/x", "src/**/x"},
		{".", "**"},
		{"./src//a.go", "src/a.go"},
		{"*.go", "*.go"},
		{"a/**/b/*_test.go", "a/**/b/*_test.go"},
		{"x**.go", ""}, // ** inside a name
		{"a/***", ""},
		{"", ""},
		{"/abs", ""},
		{"../up", ""},
		{"a/../b", ""},
		{"[ab].go", ""},
		{"{a,b}.go", ""},
		{`a\*`, ""},
		{"!a.go", ""},
	}
	for _, tt := range tests {
		g, err := Parse(tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("Parse(%q) = %q, want an error", tt.in, g)
			} else if !strings.Contains(err.Error(), "unsupported pattern") {
				t.Errorf("Parse(%q) error %q does not say what is wrong", tt.in, err)
			}
			continue
		}
		if err != nil || g.String() != tt.want {
			t.Errorf("Parse(%q) = %q, %v; want %q", tt.in, g, err, tt.want)
		}
	}
}

func TestOverlap(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		// a file
		{"src/a.go", "src/a.go", true},
		{"src/a.go", "src/b.go", false},
		{"src/a.go", "src/a.go.orig", false},
		// a folder
		{"src/", "src/a.go", true},
		{"src/", "src/deep/er/a.go", true},
		{"src/", "srcx/a.go", false},
		{"src/", "src", true},
		{"src/", "lib/", false},
		{"src/", "src/x/", true},
		{".", "anything/at/all", true},
		// src/**
		{"src/**", "src/**", true},
		{"src/**", "src/*.go", true},
		{"src/**", "*.go", false},
		{"src/**", "**/*.go", true},
		{"src/**", "lib/**", false},
		{"src/**/x.go", "src/a/b/x.go", true},
		{"src/**/x.go", "src/x.go", true},
		{"src/**/x.go", "src/a/y.go", false},
		{"src/**/x.go", "**/a/x.go", true},
		// *.go and friends: * stays within one folder name
		{"*.go", "main.go", true},
		{"*.go", "src/main.go", false},
		{"*.go", "*.md", false},
		{"*.go", "*_test.go", true},
		{"*.go", "main.*", true},
		{"*.go", "*", true},
		{"a*", "*b", true},
		{"a*c", "ab*", true},
		{"a*c", "*b", false},
		{"*.go", "**", true},
		{"**/*.go", "a/b/c.go", true},
		{"**/*.go", "a/b/c.md", false},
		{"src/*/main.go", "src/cmd/main.go", true},
		{"src/*/main.go", "src/main.go", false},
		{"src/*/main.go", "src/a/b/main.go", false},
		// ?
		{"a?.go", "ab.go", true},
		{"a?.go", "a.go", false},
		{"a?.go", "abc.go", false},
		{"?", "*", true},
		{"?", "ab", false},
		{"é?", "éé", true},
		// * never matches an empty folder name
		{"a/*/b", "a/b", false},
		{"*", "a/b", false},
	}
	for _, tt := range tests {
		a, err1 := Parse(tt.a)
		b, err2 := Parse(tt.b)
		if err1 != nil || err2 != nil {
			t.Fatalf("parse %q, %q: %v %v", tt.a, tt.b, err1, err2)
		}
		if got := Overlap(a, b); got != tt.want {
			t.Errorf("Overlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Overlap(b, a); got != tt.want {
			t.Errorf("Overlap(%q, %q) = %v, want %v (reversed)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"src/**", "src/a/b.go", true},
		{"src/**", "lib/a.go", false},
		{"*.go", "a.go", true},
		{"*.go", "a/b.go", false},
		{"a?.go", "a*.go", true},   // the path's * is a literal character
		{"a.go", "a?go", false},    // and so is its ?
		{"x/*", "x/[a].go", true},  // brackets in a file name are fine
		{"lit*", "lit*eral", true}, // a star in a name still matches *
	}
	for _, tt := range tests {
		g, err := Parse(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("%q.Match(%q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

// FuzzOverlap checks Parse never panics and that Overlap agrees with
// Match on concrete paths: a path matching both patterns proves overlap.
func FuzzOverlap(f *testing.F) {
	f.Add("src/**", "*.go", "src/a.go")
	f.Add("a*c", "ab*", "abc")
	f.Add("**/x", "a/*/x", "a/b/x")
	f.Fuzz(func(t *testing.T, p, q, path string) {
		a, err1 := Parse(p)
		b, err2 := Parse(q)
		if err1 != nil || err2 != nil {
			return
		}
		if Overlap(a, b) != Overlap(b, a) {
			t.Fatalf("Overlap(%q, %q) is not symmetric", p, q)
		}
		if a.Match(path) && b.Match(path) && !Overlap(a, b) {
			t.Fatalf("%q matches %q and %q, but Overlap says no", path, p, q)
		}
		if a.Match(path) && !Overlap(a, literalOf(path)) {
			t.Fatalf("Match and Overlap disagree on %q, %q", p, path)
		}
	})
}

func literalOf(p string) Glob { return literal(p) }
