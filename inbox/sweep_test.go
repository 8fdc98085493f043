package inbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	msgA = "1714826789012-abcdef.md"
	msgB = "1714826789013-bbbbbb.md"
)

// sweepCase is a store, what Sweep removes from it and what it keeps;
// WithoutTwins must hide exactly what Sweep removes.
type sweepCase struct {
	name    string
	files   map[string]string
	removed int
	gone    []string // inbox files that must be removed
	kept    []string // files that must stay
}

func sweepCases() []sweepCase {
	return []sweepCase{
		{
			name:    "identical twin removed",
			files:   map[string]string{"alice/inbox/" + msgA: "x", "alice/archive/" + msgA: "x"},
			removed: 1, gone: []string{"alice/inbox/" + msgA}, kept: []string{"alice/archive/" + msgA},
		},
		{
			name:    "divergent twin kept",
			files:   map[string]string{"alice/inbox/" + msgA: "x", "alice/archive/" + msgA: "y"},
			removed: 0, kept: []string{"alice/inbox/" + msgA, "alice/archive/" + msgA},
		},
		{
			name: "attachment of an archived message removed",
			files: map[string]string{
				"bob/inbox/" + msgA: "m", "bob/archive/" + msgA: "m",
				"bob/inbox/1714826789012-abcdef.options.json": "{}", "bob/archive/1714826789012-abcdef.options.json": "{}",
			},
			removed: 2, gone: []string{"bob/inbox/" + msgA, "bob/inbox/1714826789012-abcdef.options.json"},
		},
		{
			name: "attachment without its archived message kept",
			files: map[string]string{
				"bob/inbox/1714826789012-abcdef.options.json": "{}", "bob/archive/1714826789012-abcdef.options.json": "{}",
			},
			removed: 0, kept: []string{"bob/inbox/1714826789012-abcdef.options.json"},
		},
		{
			name:    "outside and dot files never touched",
			files:   map[string]string{"c/inbox/notes.md": "n", "c/archive/notes.md": "n", "c/inbox/.x": "1", "c/archive/.x": "1"},
			removed: 0, kept: []string{"c/inbox/notes.md", "c/inbox/.x"},
		},
		{
			name:    "no archive folder",
			files:   map[string]string{"d/inbox/" + msgA: "x"},
			removed: 0, kept: []string{"d/inbox/" + msgA},
		},
		{
			name: "any root entry, several agents",
			files: map[string]string{
				"NotAnAgent/inbox/" + msgA: "x", "NotAnAgent/archive/" + msgA: "x",
				"e/inbox/" + msgB: "z", "e/archive/" + msgB: "z", "e/inbox/" + msgA: "only inbox",
			},
			removed: 2, gone: []string{"NotAnAgent/inbox/" + msgA, "e/inbox/" + msgB}, kept: []string{"e/inbox/" + msgA},
		},
	}
}

func TestSweep(t *testing.T) {
	for _, tt := range sweepCases() {
		t.Run(tt.name, func(t *testing.T) {
			tr, dir := store(t, tt.files)
			if got := Sweep(tr); got != tt.removed {
				t.Errorf("Sweep() = %d, want %d", got, tt.removed)
			}
			if got := Sweep(tr); got != 0 {
				t.Errorf("second Sweep() = %d, want 0 (idempotent)", got)
			}
			for _, p := range tt.gone {
				if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
					t.Errorf("%s still exists", p)
				}
			}
			for _, p := range tt.kept {
				if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
					t.Errorf("%s was removed: %v", p, err)
				}
			}
		})
	}
}

func TestSweepNilTree(t *testing.T) {
	if got := Sweep(nil); got != 0 {
		t.Errorf("Sweep(nil) = %d, want 0", got)
	}
}

func TestSweepSkipsSymlinks(t *testing.T) {
	tr, dir := store(t, map[string]string{"a/archive/" + msgA: "x", "a/inbox/target": "x"})
	if err := os.Symlink("target", filepath.Join(dir, "a/inbox", msgA)); err != nil {
		t.Fatal(err)
	}
	if got := Sweep(tr); got != 0 {
		t.Errorf("Sweep() = %d, want 0: a symlinked inbox entry is not a twin", got)
	}
}

func TestRootShapeWarning(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string // "" or a substring of the warning
	}{
		{"empty root", map[string]string{}, ""},
		{"agent with inbox", map[string]string{"alice/inbox/": ""}, ""},
		{"agent with archive only", map[string]string{"alice/archive/": ""}, ""},
		{"agent tree with context and resources", map[string]string{"alice/inbox/": "", "alice/context/decisions/x.md": "", "alice/resources/": ""}, ""},
		{"no agent-shaped child", map[string]string{"notes.txt": "x", "foo/": ""}, "has no agent-shaped children (no <id>/inbox or <id>/archive). Is ST_ROOT pointed at the right place?"},
		{"nested one level", map[string]string{"smalltalk/alice/inbox/": ""}, "looks too shallow — a nested bus tree exists at <R>/smalltalk. A sweep/sync rooted at <R> will NOT converge it. Did you mean ST_ROOT=<R>/smalltalk?"},
		{"nested two levels", map[string]string{".local/state/alice/archive/": "", "bob/inbox/": ""}, "nested bus tree exists at <R>/.local/state."},
		{"too deep to see", map[string]string{"a/b/c/alice/inbox/": ""}, "has no agent-shaped children"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, dir := store(t, tt.files)
			got := RootShapeWarning(tr)
			want := strings.ReplaceAll(tt.want, "<R>", dir)
			if want == "" && got != "" || !strings.Contains(got, want) {
				t.Errorf("RootShapeWarning() = %q, want %q", got, want)
			}
			if got != "" && !strings.HasPrefix(got, "WARN: st root "+dir+" ") {
				t.Errorf("RootShapeWarning() = %q, want the WARN: st root <root> frame", got)
			}
		})
	}
	if got := RootShapeWarning(nil); got != "" {
		t.Errorf("RootShapeWarning(nil) = %q", got)
	}
}

func BenchmarkSweepClean(b *testing.B) {
	files := map[string]string{}
	for a := range 50 {
		for m := range 50 {
			name := "agent" + string(rune('a'+a%26)) + string(rune('a'+a/26))
			files[name+"/inbox/"] = ""
			fn := "17148267890" + string(rune('0'+m/10)) + string(rune('0'+m%10)) + "-abcdef.md"
			files[name+"/archive/"+fn] = "x"
		}
	}
	tr, _ := store(b, files)
	for b.Loop() {
		Sweep(tr)
	}
}
