package agents

import (
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/storetest"
)

// TestNameBounded: a 1 GiB (sparse) name file is read no further than
// its first line's worth of bytes.
func TestNameBounded(t *testing.T) {
	root := t.TempDir()
	storetest.Sparse(t, root, "alice/name", "Alice\n", 1<<30)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var got *string
	allocated := storetest.Allocated(func() { got = Name(tr, "alice") })
	if got == nil || *got != "Alice" {
		t.Errorf("Name = %v, want Alice", got)
	}
	if n := allocated; n > 1<<20 {
		t.Errorf("Name allocated %d bytes for a 1 GiB name file", n)
	}
}
