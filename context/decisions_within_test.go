package context

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// TestDecisionsWithin covers the bounded read the dashboard and the MCP
// tool use, and the kinds of entry a decisions folder can hold.
func TestDecisionsWithin(t *testing.T) {
	tooLarge := func(size int64) string { return fmt.Sprintf("- (%d bytes)", size) }
	tests := []struct {
		name  string
		files map[string]string // relative to alice/context
		limit int64
		want  string
	}{
		{"at the limit", map[string]string{"decisions/1.md": "- 1234\n"}, 7, "- 1234\n"},
		{"over the limit", map[string]string{"decisions/1.md": "- 12345\n", "decisions/2.md": "- b\n"}, 7, "- (8 bytes)\n- b\n"},
		{"legacy over the limit", map[string]string{"decisions.md": "- 12345\n", "decisions/1.md": "- a\n"}, 7, "- (8 bytes)\n- a\n"},
		{"any size", map[string]string{"decisions/1.md": "- 12345\n"}, -1, "- 12345\n"},
		{"empty file within", map[string]string{"decisions/1.md": "", "decisions/2.md": "- b\n"}, 0, "- (4 bytes)\n"},
	}
	for _, tt := range tests {
		tr, root := newTree(t)
		for rel, c := range tt.files {
			put(t, root, filepath.Join("alice", "context", rel), c)
		}
		got, _ := DecisionsWithin(tr, "alice", tt.limit, tooLarge)
		if got != tt.want {
			t.Errorf("%s: DecisionsWithin(%d) = %q; want %q", tt.name, tt.limit, got, tt.want)
		}
	}
}

// TestDecisionsSkipsWhatIsNotAFile: a decision is a regular file; a
// symlink (to a file outside the store), a FIFO (which would hang a
// reader) or a folder named like one is passed over, and the rest read.
func TestDecisionsSkipsWhatIsNotAFile(t *testing.T) {
	tr, root := newTree(t)
	dir := filepath.Join(root, "alice", "context", "decisions")
	put(t, root, "alice/context/decisions/1.md", "- a\n")
	put(t, root, "alice/context/decisions/5.md", "- e\n")
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("- secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "2.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "3.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "4.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{-1, 100} {
		got, ok := DecisionsWithin(tr, "alice", limit, func(int64) string { return "too large" })
		if want := "- a\n- e\n"; got != want || !ok {
			t.Errorf("limit %d: got %q, %v; want %q", limit, got, ok, want)
		}
	}
}

// BenchmarkDecisions reads an old agent's log: one file per decision.
func BenchmarkDecisions(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "alice", "context", "decisions")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		b.Fatal(err)
	}
	for i := range 500 {
		line := fmt.Sprintf("- 2026-12-05T02:23:44.%03dZ decision %d. why: because.\n", i%1000, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%013d-abcdef.md", i)), []byte(line), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	tr, err := fsutil.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	for b.Loop() {
		if _, ok := Decisions(tr, "alice"); !ok {
			b.Fatal("no decisions")
		}
	}
}
