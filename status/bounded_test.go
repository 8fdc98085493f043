package status

import (
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/storetest"
)

// TestEffectiveBounded: a 1 GiB (sparse) status file is read no further
// than its first few bytes.
func TestEffectiveBounded(t *testing.T) {
	root := t.TempDir()
	storetest.Sparse(t, root, "alice/status", "busy\n", 1<<30)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var got string
	allocated := storetest.Allocated(func() { got = Effective(tr, "alice", time.Now()) })
	if got != "busy" {
		t.Errorf("Effective = %q, want busy", got)
	}
	if n := allocated; n > 1<<20 {
		t.Errorf("Effective allocated %d bytes for a 1 GiB status", n)
	}
}
