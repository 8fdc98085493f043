package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadHeadTail(t *testing.T) {
	tr, base := open(t)
	for _, tt := range []struct {
		data string
		n    int64
		want string
	}{
		{"", 3, ""},
		{"abcdef", 3, "abcdef"},
		{"abcdefg", 3, "abcefg"},
		{"0123456789", 2, "0189"},
	} {
		os.WriteFile(filepath.Join(base, "f"), []byte(tt.data), 0o666)
		got, fi, err := tr.ReadHeadTail("f", tt.n)
		if err != nil || string(got) != tt.want || fi.Size() != int64(len(tt.data)) {
			t.Errorf("ReadHeadTail(%q, %d) = %q, %v, %v; want %q", tt.data, tt.n, got, fi, err, tt.want)
		}
	}
	// A 1 GiB sparse file costs two small reads.
	big := filepath.Join(base, "big")
	f, _ := os.Create(big)
	f.WriteString("head")
	f.Truncate(1 << 30)
	f.WriteAt([]byte("tail"), 1<<30-4)
	f.Close()
	got, fi, err := tr.ReadHeadTail("big", 4)
	if err != nil || string(got) != "headtail" || fi.Size() != 1<<30 {
		t.Errorf("big: %q %v", got, err)
	}
	os.Symlink("f", filepath.Join(base, "link"))
	if _, _, err := tr.ReadHeadTail("link", 4); !errors.Is(err, ErrNotRegular) {
		t.Errorf("symlink: %v", err)
	}
}

func TestFolderReadPrefix(t *testing.T) {
	tr, base := open(t)
	os.Mkdir(filepath.Join(base, "d"), 0o777)
	os.WriteFile(filepath.Join(base, "d", "f"), []byte("0123456789"), 0o666)
	syscall.Mkfifo(filepath.Join(base, "d", "fifo"), 0o666)
	os.Symlink("f", filepath.Join(base, "d", "link"))
	f, err := tr.OpenFolder("d")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tt := range []struct {
		limit int64
		want  string
	}{{0, ""}, {4, "0123"}, {10, "0123456789"}, {11, "0123456789"}, {1 << 20, "0123456789"}} {
		got, size, err := f.ReadPrefix("f", tt.limit)
		if err != nil || string(got) != tt.want || size != 10 {
			t.Errorf("ReadPrefix(%d) = %q, %d, %v", tt.limit, got, size, err)
		}
	}
	for _, name := range []string{"fifo", "link", "../d/f"} {
		if _, _, err := f.ReadPrefix(name, 4); err == nil {
			t.Errorf("ReadPrefix(%q) read it", name)
		}
	}
}

// TestFolderReadStart: the fstat-free read returns counts that tell a
// whole file from a prefix, and refuses or empties, without blocking,
// whatever is not a regular file.
func TestFolderReadStart(t *testing.T) {
	tr, base := open(t)
	d := filepath.Join(base, "d")
	os.MkdirAll(filepath.Join(d, "sub"), 0o777)
	os.WriteFile(filepath.Join(d, "f"), []byte("0123456789"), 0o666)
	os.Symlink("f", filepath.Join(d, "link"))
	os.Symlink("/dev/zero", filepath.Join(d, "zero"))
	syscall.Mkfifo(filepath.Join(d, "fifo"), 0o666)
	syscall.Mkfifo(filepath.Join(d, "fed"), 0o666)
	// A FIFO with a writer that has written: a blocking read would return
	// its bytes and then wait for more.
	w, err := os.OpenFile(filepath.Join(d, "fed"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write([]byte("abc"))
	f, err := tr.OpenFolder("d")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tt := range []struct {
		size int
		want string
	}{{0, ""}, {4, "0123"}, {10, "0123456789"}, {11, "0123456789"}, {1 << 16, "0123456789"}} {
		buf := make([]byte, tt.size)
		n, err := f.ReadStart("f", buf)
		if err != nil || string(buf[:n]) != tt.want {
			t.Errorf("ReadStart(%d bytes) = %q, %v; want %q", tt.size, buf[:n], err, tt.want)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, name := range []string{"link", "zero", "sub", "missing", "../d/f", ".."} {
			if n, err := f.ReadStart(name, make([]byte, 8)); err == nil {
				t.Errorf("ReadStart(%q) read %d bytes", name, n)
			}
		}
		if n, err := f.ReadStart("fifo", make([]byte, 8)); n != 0 {
			t.Errorf("ReadStart(fifo) = %d, %v", n, err)
		}
		// What a writer already wrote, and no wait for more.
		buf := make([]byte, 8)
		if n, _ := f.ReadStart("fed", buf); n > 3 || string(buf[:n]) != "abc"[:n] {
			t.Errorf("ReadStart(fed) = %q", buf[:n])
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("ReadStart blocked on a FIFO")
	}
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	os.WriteFile(ok, []byte("a: 1\n"), 0o666)
	os.Symlink(ok, filepath.Join(dir, "link.yaml"))
	os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(strings.Repeat("x", 100)), 0o666)
	syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o666)
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml"))
	os.Mkdir(filepath.Join(dir, "dir.yaml"), 0o777)
	for _, tt := range []struct {
		name string
		want string
		err  error
	}{
		{"ok.yaml", "a: 1\n", nil},
		{"link.yaml", "a: 1\n", nil},
		{"big.yaml", "", ErrTooLarge},
		{"fifo.yaml", "", ErrNotRegular},
		{"zero.yaml", "", ErrNotRegular},
		{"dir.yaml", "", ErrNotRegular},
	} {
		got, err := ReadConfig(filepath.Join(dir, tt.name), 50)
		if string(got) != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("ReadConfig(%s) = %q, %v; want %q, %v", tt.name, got, err, tt.want, tt.err)
		}
	}
}

// TestFolderFIFO: a FIFO where a folder should be is refused at once by
// every folder reader, never waited on.
func TestFolderFIFO(t *testing.T) {
	tr, base := open(t)
	if err := syscall.Mkfifo(filepath.Join(base, "inbox"), 0o666); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := tr.ReadDir("inbox"); err == nil {
			t.Error("ReadDir listed a FIFO")
		}
		if _, err := tr.ReadDirNames("inbox"); err == nil {
			t.Error("ReadDirNames listed a FIFO")
		}
		if f, err := tr.OpenFolder("inbox"); err == nil {
			f.Close()
			t.Error("OpenFolder opened a FIFO")
		}
		if err := tr.syncDir("inbox"); err == nil {
			t.Error("syncDir synced a FIFO")
		}
		if sub, err := tr.Sub("inbox"); err == nil {
			sub.Close()
			t.Error("Sub opened a FIFO")
		}
		if _, _, err := tr.ReadRegular("inbox/m.md"); err == nil {
			t.Error("ReadRegular read through a FIFO")
		}
		if err := tr.WriteAtomic("inbox/m.md", nil); err == nil {
			t.Error("WriteAtomic wrote through a FIFO")
		}
		if _, err := tr.Deliver("inbox", nil, func() string { return "m.md" }); err == nil {
			t.Error("Deliver wrote through a FIFO")
		}
		if _, err := Open(filepath.Join(base, "inbox")); err == nil {
			t.Error("Open opened a FIFO")
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a folder reader blocked on a FIFO")
	}
}
