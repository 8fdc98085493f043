package agents

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// TestNameBounded: a 1 GiB (sparse) name file is read no further than
// its first line's worth of bytes.
func TestNameBounded(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "alice", "name")
	os.MkdirAll(filepath.Dir(p), 0o777)
	os.WriteFile(p, []byte("Alice\n"), 0o666)
	os.Truncate(p, 1<<30)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := Name(tr, "alice")
	runtime.ReadMemStats(&after)
	if got == nil || *got != "Alice" {
		t.Errorf("Name = %v, want Alice", got)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Name allocated %d bytes for a 1 GiB name file", n)
	}
}
