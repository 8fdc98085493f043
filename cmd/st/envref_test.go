package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEnvReference keeps docs/env.md equal to what the declaration in
// envref.go renders.
func TestEnvReference(t *testing.T) {
	want := envReference()
	path := filepath.Join("..", "..", "docs", "env.md")
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
		t.Errorf("docs/env.md is stale: run `go test ./cmd/st -run TestEnvReference -update`")
	}
}

// envName is how an environment variable is spelt; knownPrefix marks the
// strings that name one of st's (or its clients') variables wherever
// they appear, not only as an argument of a lookup.
var (
	envName     = regexp.MustCompile(`^_?[A-Z][A-Z0-9_]*$`)
	knownPrefix = regexp.MustCompile(`^_?(ST|COORD|CLAUDE|CODEX|XDG)_[A-Z0-9_]+$`)
)

// lookupFuncs are the functions (or methods) through which st reads its
// environment: os.Getenv, os.LookupEnv, layout.Env's Get and Lookup and
// the get/lookup functions handed down to packages.
var lookupFuncs = []string{"Getenv", "LookupEnv", "Get", "Lookup", "get", "lookup"}

// goFiles calls fn with every parsed non-test Go file of the module (not
// of the modules nested in it).
func goFiles(t *testing.T, fn func(path string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") && path != root {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // a module of its own (third_party, tools/jaeger)
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		fn(path, f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readEnvNames finds every environment variable the code names: a string
// literal passed to a lookup function, and any literal spelt like one of
// st's variables (a constant, a list ranged over).
func readEnvNames(t *testing.T) map[string]string {
	found := map[string]string{}
	goFiles(t, func(path string, f *ast.File, fset *token.FileSet) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				var name string
				switch fun := n.Fun.(type) {
				case *ast.SelectorExpr:
					name = fun.Sel.Name
				case *ast.Ident:
					name = fun.Name
				}
				if !slices.Contains(lookupFuncs, name) || len(n.Args) != 1 {
					return true
				}
				if s, ok := stringLit(n.Args[0]); ok && envName.MatchString(s) {
					found[s] = fset.Position(n.Pos()).String()
				}
			case *ast.BasicLit:
				if s, ok := stringLit(n); ok && knownPrefix.MatchString(s) {
					if _, seen := found[s]; !seen {
						found[s] = fset.Position(n.Pos()).String()
					}
				}
			}
			return true
		})
	})
	return found
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// Every environment variable the code reads is declared in envref.go,
// so that `st help env` and docs/env.md name it.
func TestEnvDeclared(t *testing.T) {
	found := readEnvNames(t)
	names := make([]string, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if envSetting(n) == nil {
			t.Errorf("%s: reads $%s, which envref.go does not declare", found[n], n)
		}
	}
	if len(found) < 20 {
		t.Errorf("found only %d variables: the scan has stopped seeing the code's reads", len(found))
	}
}

// configKeysRead finds the config.yaml keys the hooks read: the cases of
// a switch over a YAML key (m[i].Value), string constants named …Key,
// yaml struct tags, and keys looked up in a decoded row (row["status"]).
func configKeysRead(t *testing.T) map[string]string {
	found := map[string]string{}
	add := func(s string, pos token.Pos, fset *token.FileSet) {
		if _, seen := found[s]; !seen && s != "" && s != "-" {
			found[s] = fset.Position(pos).String()
		}
	}
	goFiles(t, func(path string, f *ast.File, fset *token.FileSet) {
		if filepath.Base(filepath.Dir(path)) != "hooks" {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SwitchStmt:
				sel, ok := n.Tag.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Value" {
					return true
				}
				for _, st := range n.Body.List {
					for _, e := range st.(*ast.CaseClause).List {
						if s, ok := stringLit(e); ok {
							add(s, e.Pos(), fset)
						}
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if strings.HasSuffix(id.Name, "Key") && i < len(n.Values) {
						if s, ok := stringLit(n.Values[i]); ok {
							add(s, id.Pos(), fset)
						}
					}
				}
			case *ast.Field:
				if n.Tag != nil {
					tag, _ := strconv.Unquote(n.Tag.Value)
					if y, ok := reflectTag(tag, "yaml"); ok {
						add(strings.Split(y, ",")[0], n.Pos(), fset)
					}
				}
			case *ast.IndexExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == "row" {
					if s, ok := stringLit(n.Index); ok {
						add(s, n.Pos(), fset)
					}
				}
			}
			return true
		})
	})
	return found
}

// reflectTag is reflect.StructTag.Lookup on a raw tag.
func reflectTag(tag, key string) (string, bool) {
	for _, part := range strings.Fields(tag) {
		k, v, ok := strings.Cut(part, ":")
		if ok && k == key {
			s, err := strconv.Unquote(v)
			return s, err == nil
		}
	}
	return "", false
}

// Every config.yaml key the hooks read is declared in envref.go (as a
// key or a part of one: deny[].tool declares deny and tool).
func TestConfigKeysDeclared(t *testing.T) {
	found := configKeysRead(t)
	var parts []string
	for _, k := range configKeys {
		parts = append(parts, strings.FieldsFunc(k.name, func(r rune) bool { return r == '.' || r == '[' || r == ']' })...)
	}
	for k, where := range found {
		if !slices.Contains(parts, k) {
			t.Errorf("%s: reads config.yaml key %q, which envref.go does not declare", where, k)
		}
	}
	if len(found) < 8 {
		t.Errorf("found only %d config keys: the scan has stopped seeing the hooks' reads", len(found))
	}
}
