package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFolderReadRegular reads plain files and refuses everything else:
// symlinks (even to a file in the same folder), FIFOs (without blocking),
// folders, and names that are not one path element.
func TestFolderReadRegular(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "inbox")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret")
	for name, data := range map[string]string{"m.md": "hello\n", "empty.md": "", outside: "secret\n"} {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		if err := os.WriteFile(name, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("m.md", filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o666); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	f, err := tr.OpenFolder("a/inbox")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tt := range []struct {
		name, want string
		ok         bool
	}{
		{"m.md", "hello\n", true},
		{"empty.md", "", true},
		{"link.md", "", false},
		{"out.md", "", false},
		{"fifo.md", "", false},
		{"sub", "", false},
		{"missing.md", "", false},
		{"../../a/inbox/m.md", "", false},
		{"..", "", false},
		{"", "", false},
	} {
		data, err := f.ReadRegular(tt.name)
		if (err == nil) != tt.ok || string(data) != tt.want {
			t.Errorf("ReadRegular(%q) = %q, %v; want %q, ok=%v", tt.name, data, err, tt.want, tt.ok)
		}
	}
	if _, err := f.ReadRegular("link.md"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadRegular(symlink) error = %v, want ErrNotRegular", err)
	}
}
