package inbox

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// TestItemsBounded: a listing reads only the frontmatter of a 2 GiB
// (sparse) message, and still projects it.
func TestItemsBounded(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "alice", "inbox")
	os.MkdirAll(dir, 0o777)
	p := filepath.Join(dir, "1700000000000-aaaaaa.md")
	os.WriteFile(p, []byte("---\nfrom: bob\nsubject: huge\n---\nbody"), 0o666)
	os.Truncate(p, 2<<30)
	os.WriteFile(filepath.Join(dir, "1700000000001-bbbbbb.md"), []byte("---\nfrom: carol\n---\nhi\n"), 0o666)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	items, err := Items(tr, "alice", Inbox, Filter{})
	runtime.ReadMemStats(&after)
	if err != nil || len(items) != 2 || items[0].Subject == nil || *items[0].Subject != "huge" || *items[1].From != "carol" {
		t.Fatalf("Items = %+v, %v", items, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 4<<20 {
		t.Errorf("Items allocated %d bytes for a 2 GiB message", n)
	}
	if f, ok := ReadFields(tr, "alice/inbox/1700000000000-aaaaaa.md"); !ok || f["subject"] != "huge" {
		t.Errorf("ReadFields = %v, %v", f, ok)
	}
}
