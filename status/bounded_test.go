package status

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// TestEffectiveBounded: a 1 GiB (sparse) status file is read no further
// than its first few bytes.
func TestEffectiveBounded(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "alice", "status")
	os.MkdirAll(filepath.Dir(p), 0o777)
	os.WriteFile(p, []byte("busy\n"), 0o666)
	os.Truncate(p, 1<<30)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := Effective(tr, "alice", time.Now())
	runtime.ReadMemStats(&after)
	if got != "busy" {
		t.Errorf("Effective = %q, want busy", got)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Effective allocated %d bytes for a 1 GiB status", n)
	}
}
