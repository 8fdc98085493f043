package fsutil

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestFolderReadRegular reads plain files and refuses everything else:
// symlinks (even to a file in the same folder), FIFOs (without blocking),
// folders, and names that are not one path element; ModTime answers for
// the same files only.
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
	f := openFolder(t, root, "a/inbox")
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
		if _, ok := f.ModTime(tt.name); ok != tt.ok {
			t.Errorf("ModTime(%q) ok = %v, want %v", tt.name, ok, tt.ok)
		}
	}
	at := time.Date(2026, 7, 21, 10, 0, 0, 123456789, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "m.md"), at, at); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.ModTime("m.md"); !got.Equal(at) {
		t.Errorf("ModTime(m.md) = %v, want %v", got, at)
	}
	if _, err := f.ReadRegular("link.md"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadRegular(symlink) error = %v, want ErrNotRegular", err)
	}
}

// TestFolderRegularNames lists regular files only, across several
// getdents buffers, the same names os.ReadDir gives; IsRegular agrees,
// and listPrefixed finds the few names with a prefix among them.
func TestFolderRegularNames(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "inbox")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o777)
	var want []string
	for i := range 3000 { // about 150 KB of entries
		name := fmt.Sprintf("%013d-%06d.md", 1700000000000+i, i)
		if i%1000 == 7 {
			name = "." + name + ".tmp"
		}
		os.WriteFile(filepath.Join(dir, name), nil, 0o666)
		want = append(want, name)
	}
	os.Symlink("1700000000000-000000.md", filepath.Join(dir, "link.md"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.md"))
	syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o666)
	f := openFolder(t, root, "inbox")
	got, err := f.RegularNames()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"1700000000000-000000.md": true, "link.md": false, "zero.md": false,
		"fifo.md": false, "sub": false, "missing.md": false, "../inbox/1700000000000-000000.md": false, "": false} {
		if f.IsRegular(name) != want {
			t.Errorf("IsRegular(%q) = %v", name, !want)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("RegularNames: %d names, want %d (first %q)", len(got), len(want), got[:min(3, len(got))])
	}
	// The sweep's listing keeps the temp names alone, of any type.
	os.Symlink("x", filepath.Join(dir, ".1700000000001-link.tmp"))
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	temps, err := listPrefixed(d, ".17")
	slices.Sort(temps)
	if wantTemps := []string{".1700000000001-link.tmp", ".1700000000007-000007.md.tmp", ".1700000001007-001007.md.tmp", ".1700000002007-002007.md.tmp"}; err != nil || !slices.Equal(temps, wantTemps) {
		t.Errorf("listPrefixed = %q, %v; want %q", temps, err, wantTemps)
	}
}

// Names lists every entry, and Lstat gives each one's type as os.Lstat
// does, without following a symlink, and its mtime: a file, a folder, a
// symlink out of the store, a FIFO and a socket.
func TestFolderNamesAndLstat(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "inbox")
	if err := os.MkdirAll(filepath.Join(dir, "folder.md"), 0o777); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "file.md"), []byte("x"), 0o666)
	os.Symlink("/etc/passwd", filepath.Join(dir, "link.md"))
	syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o666)
	sock, err := net.Listen("unix", filepath.Join(dir, "sock.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	mtime := time.Unix(1795966371, 663250000)
	os.Chtimes(filepath.Join(dir, "file.md"), mtime, mtime)
	f := openFolder(t, root, "inbox")
	names, err := f.Names()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(names)
	if want := []string{"fifo.md", "file.md", "folder.md", "link.md", "sock.md"}; !slices.Equal(names, want) {
		t.Errorf("Names = %q, want %q", names, want)
	}
	for _, name := range names {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		mode, mt, ok := f.Lstat(name)
		if !ok || mode != fi.Mode().Type() || !mt.Equal(fi.ModTime()) {
			t.Errorf("Lstat(%s) = %v %v %v, os.Lstat: %v %v", name, mode, mt, ok, fi.Mode().Type(), fi.ModTime())
		}
	}
	if _, mt, _ := f.Lstat("file.md"); !mt.Equal(mtime) {
		t.Errorf("file.md's mtime %v, want %v", mt, mtime)
	}
	for _, name := range []string{"missing.md", "../inbox", "folder.md/x", ""} {
		if _, _, ok := f.Lstat(name); ok {
			t.Errorf("Lstat(%q) answered", name)
		}
	}
}
