package fsutil

import (
	"os"
	"path/filepath"
	"testing"
)

// A Folders view opens a top-level folder once, at its first use, and
// reads every path under it from that handle until released: a folder
// renamed away in between is still the one read, where the tree itself,
// and the view once released, see the new folder.
func TestFoldersOpensEachFolderOnce(t *testing.T) {
	base := t.TempDir()
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("bob/status", "busy")
	write("bob/inbox/1-aaaaaa.md", "first")
	tr, err := Open(base)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	view, release := tr.Folders()
	if data, _, err := view.ReadRange("bob/status", 0, 100); err != nil || string(data) != "busy" {
		t.Fatalf("first read: %q, %v", data, err)
	}
	if err := os.Rename(filepath.Join(base, "bob"), filepath.Join(base, "bob.old")); err != nil {
		t.Fatal(err)
	}
	write("bob/status", "away")
	for _, tc := range []struct {
		tree *Tree
		want string
	}{{view, "busy"}, {tr, "away"}} {
		if data, _, err := tc.tree.ReadRange("bob/status", 0, 100); err != nil || string(data) != tc.want {
			t.Errorf("read %q, %v; want %q", data, err, tc.want)
		}
	}
	if names, err := view.ReadDirNames("bob/inbox"); err != nil || len(names) != 1 {
		t.Errorf("the view lists %v, %v: want the inbox of the folder it opened first", names, err)
	}
	if _, err := view.Stat("bob/missing"); !os.IsNotExist(err) || err.Error() != "statat bob/missing: no such file or directory" {
		t.Errorf("a missing file through the view: %v, want its path as given", err)
	}
	release()
	if data, _, err := view.ReadRange("bob/status", 0, 100); err != nil || string(data) != "away" {
		t.Errorf("after release the view still reads the folder it had open: %q, %v", data, err)
	}
}
