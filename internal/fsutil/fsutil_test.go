package fsutil

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func open(t *testing.T) (*Tree, string) {
	t.Helper()
	base := t.TempDir()
	tr, err := Open(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, base
}

// openFolder opens the tree at root and its folder rel, both closed when
// the test ends.
func openFolder(t *testing.T, root, rel string) *Folder {
	t.Helper()
	tr, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	f, err := tr.OpenFolder(rel)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestWriteAtomic(t *testing.T) {
	tr, base := open(t)
	tr.MkdirAll("a")
	for _, data := range []string{"one\n", "two\n", ""} {
		if err := tr.WriteAtomic("a/f", []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(base, "a", "f"))
		if string(got) != data {
			t.Errorf("f = %q, want %q", got, data)
		}
	}
	if got := names(t, filepath.Join(base, "a")); len(got) != 1 || got[0] != "f" {
		t.Errorf("folder holds %v after writes", got)
	}
	// Errors leave nothing behind: a folder where the file should be,
	// and a missing folder.
	tr.MkdirAll("a/d/x")
	if err := tr.WriteAtomic("a/d", []byte("x")); err == nil {
		t.Error("WriteAtomic over a folder succeeded")
	}
	if got := names(t, filepath.Join(base, "a")); strings.Join(got, ",") != "d,f" {
		t.Errorf("after error the folder holds %v", got)
	}
	if err := tr.WriteAtomic("missing/f", []byte("x")); err == nil {
		t.Error("WriteAtomic into a missing folder succeeded")
	}
	// Permissions follow the umask like Node's (0666 &^ umask), and an
	// existing file's mode is kept.
	os.Chmod(filepath.Join(base, "a", "f"), 0o640)
	tr.WriteAtomic("a/f", []byte("x"))
	if fi, _ := os.Stat(filepath.Join(base, "a", "f")); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
}

func TestDeliver(t *testing.T) {
	tr, base := open(t)
	tr.MkdirAll("in")
	n := 0
	gen := func() string { n++; return []string{"x.md", "x.md", "y.md"}[min(n-1, 2)] }
	name, err := tr.Deliver("in", []byte("first"), gen)
	if err != nil || name != "x.md" {
		t.Fatalf("Deliver = %q, %v", name, err)
	}
	// The next name collides with x.md: Deliver must not replace it.
	name, err = tr.Deliver("in", []byte("second"), gen)
	if err != nil || name != "y.md" {
		t.Fatalf("Deliver = %q, %v", name, err)
	}
	if got, _ := os.ReadFile(filepath.Join(base, "in", "x.md")); string(got) != "first" {
		t.Errorf("x.md replaced: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(base, "in", "y.md")); string(got) != "second" {
		t.Errorf("y.md = %q", got)
	}
	// Every name taken: ErrCollisions after 5 attempts, no temp left.
	attempts := 0
	_, err = tr.Deliver("in", []byte("third"), func() string { attempts++; return "x.md" })
	if !errors.Is(err, ErrCollisions) || attempts != 5 {
		t.Errorf("Deliver = %v after %d attempts", err, attempts)
	}
	if err.Error() != "filename collisions exhausted (5 attempts) — clock drift?" {
		t.Errorf("message %q", err)
	}
	if got := names(t, filepath.Join(base, "in")); strings.Join(got, ",") != "x.md,y.md" {
		t.Errorf("inbox holds %v", got)
	}
	if _, err := tr.Deliver("missing", []byte("x"), func() string { return "z.md" }); err == nil {
		t.Error("Deliver into a missing folder succeeded")
	}
	// A dangling symlink under the name is never written through.
	os.Symlink(filepath.Join(base, "outside"), filepath.Join(base, "in", "s.md"))
	if name, err := tr.Deliver("in", []byte("x"), func() string { return "s.md" }); err == nil {
		t.Errorf("Deliver onto a dangling symlink = %q", name)
	}
	if _, err := os.Lstat(filepath.Join(base, "outside")); err == nil {
		t.Error("Deliver wrote through a symlink")
	}
}

func TestStaleTemps(t *testing.T) {
	tr, base := open(t)
	tr.MkdirAll("in")
	dir := filepath.Join(base, "in")
	old := time.Now().Add(-StaleTempAge - time.Hour)
	fresh := time.Now().Add(-StaleTempAge + time.Hour)
	files := map[string]time.Time{
		".st-1714826789012-abcdef.md.99.tmp": old,   // ours, stale: removed
		".st-1714826789012-bbbbbb.md.98.tmp": fresh, // ours, fresh: kept
		".st-notes.tmp":                      old,   // ours by shape: removed
		".1714826789012-cccccc.md.XyZ12":     old,   // rsync's temp: kept
		".syncthing.x.md.tmp":                old,   // another tool's: kept
		".DS_Store":                          old,
		"1714826789012-dddddd.md":            old, // a message: kept
		".status123":                         old, // renameio temp of another target in this folder
	}
	for n, mt := range files {
		p := filepath.Join(dir, n)
		os.WriteFile(p, []byte("x"), 0o666)
		os.Chtimes(p, mt, mt)
	}
	os.Mkdir(filepath.Join(dir, ".st-dir.tmp"), 0o777) // not a regular file: kept
	os.Chtimes(filepath.Join(dir, ".st-dir.tmp"), old, old)
	if _, err := tr.Deliver("in", []byte("m"), func() string { return "1714826789013-eeeeee.md" }); err != nil {
		t.Fatal(err)
	}
	got := names(t, dir)
	want := []string{".1714826789012-cccccc.md.XyZ12", ".DS_Store", ".st-1714826789012-bbbbbb.md.98.tmp", ".st-dir.tmp", ".status123", ".syncthing.x.md.tmp", "1714826789012-dddddd.md", "1714826789013-eeeeee.md"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("after Deliver:\n got %v\nwant %v", got, want)
	}

	// WriteAtomic removes only stale renameio temps of its own target.
	os.WriteFile(filepath.Join(base, ".status123"), []byte("x"), 0o666)
	os.WriteFile(filepath.Join(base, ".status456"), []byte("x"), 0o666)
	os.WriteFile(filepath.Join(base, ".statusx1"), []byte("x"), 0o666)
	os.WriteFile(filepath.Join(base, ".name789"), []byte("x"), 0o666)
	os.Chtimes(filepath.Join(base, ".status123"), old, old)
	os.Chtimes(filepath.Join(base, ".statusx1"), old, old)
	os.Chtimes(filepath.Join(base, ".name789"), old, old)
	if err := tr.WriteAtomic("status", []byte("busy\n")); err != nil {
		t.Fatal(err)
	}
	got = names(t, base)
	want = []string{".name789", ".status456", ".statusx1", "in", "status"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("after WriteAtomic:\n got %v\nwant %v", got, want)
	}
}

func TestMoveNoReplace(t *testing.T) {
	tr, base := open(t)
	tr.MkdirAll("in")
	tr.MkdirAll("ar")
	os.WriteFile(filepath.Join(base, "in", "m"), []byte("inbox"), 0o666)
	os.WriteFile(filepath.Join(base, "ar", "m"), []byte("archive"), 0o666)
	err := tr.MoveNoReplace("in/m", "ar/m")
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("MoveNoReplace onto an existing file = %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(base, "ar", "m")); string(got) != "archive" {
		t.Errorf("archive copy replaced: %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(base, "in", "m")); string(got) != "inbox" {
		t.Errorf("inbox copy lost: %q", got)
	}
	if err := tr.MoveNoReplace("in/m", "ar/n"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(base, "in", "m")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("source still there: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(base, "ar", "n")); string(got) != "inbox" {
		t.Errorf("moved file = %q", got)
	}
	if err := tr.MoveNoReplace("in/gone", "ar/gone"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("moving a missing file = %v", err)
	}
}

func TestEscapingSymlinksRefused(t *testing.T) {
	tr, base := open(t)
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(base, "bob"), 0o777)
	os.Symlink(outside, filepath.Join(base, "bob", "inbox"))
	os.Symlink(filepath.Join(outside, "status"), filepath.Join(base, "bob", "status"))
	os.Symlink("../../..", filepath.Join(base, "bob", "up"))

	if _, err := tr.Deliver("bob/inbox", []byte("x"), func() string { return "m.md" }); err == nil {
		t.Error("Deliver through an escaping symlinked folder succeeded")
	}
	if err := tr.MkdirAll("bob/inbox/sub"); err == nil {
		t.Error("MkdirAll through an escaping symlink succeeded")
	}
	if err := tr.WriteAtomic("bob/up/status", []byte("x")); err == nil {
		t.Error("WriteAtomic through ../../.. succeeded")
	}
	for _, rel := range []string{"../x", "/etc/passwd", "bob/../../x"} {
		if err := tr.WriteAtomic(rel, []byte("x")); err == nil {
			t.Errorf("WriteAtomic(%q) succeeded", rel)
		}
		if _, _, err := tr.ReadRegular(rel); err == nil {
			t.Errorf("ReadRegular(%q) succeeded", rel)
		}
	}
	if _, _, err := tr.ReadRegular("bob/status"); err == nil {
		t.Error("ReadRegular followed an escaping symlink")
	}
	if got := names(t, outside); len(got) != 0 {
		t.Errorf("files written outside the root: %v", got)
	}
	// WriteAtomic replaces a symlink named like its target rather than
	// writing through it.
	if err := tr.WriteAtomic("bob/status", []byte("busy\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(base, "bob", "status")); !fi.Mode().IsRegular() {
		t.Error("status is still a symlink")
	}
	if got := names(t, outside); len(got) != 0 {
		t.Errorf("files written outside the root: %v", got)
	}
}

func TestReadRegular(t *testing.T) {
	tr, base := open(t)
	os.WriteFile(filepath.Join(base, "f"), []byte("data"), 0o666)
	data, fi, err := tr.ReadRegular("f")
	if err != nil || string(data) != "data" || fi.Size() != 4 {
		t.Errorf("ReadRegular = %q, %v", data, err)
	}
	os.Symlink("f", filepath.Join(base, "link"))
	if _, _, err := tr.ReadRegular("link"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("symlink: %v", err)
	}
	os.Mkdir(filepath.Join(base, "d"), 0o777)
	if _, _, err := tr.ReadRegular("d"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("folder: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(base, "fifo"), 0o666); err == nil {
		done := make(chan error, 1)
		go func() { _, _, err := tr.ReadRegular("fifo"); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("FIFO: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("ReadRegular blocked on a FIFO")
		}
	}
	if _, _, err := tr.ReadRegular("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestLock(t *testing.T) {
	tr, _ := open(t)
	unlock, err := tr.Lock(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	// A second holder (a separate open file description, as in another
	// process) waits and gives up.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if u2, err := tr.Lock(ctx, "k"); err == nil {
		u2()
		t.Fatal("second Lock succeeded while the first was held")
	}
	// Another key is independent.
	u3, err := tr.Lock(context.Background(), "other")
	if err != nil {
		t.Fatal(err)
	}
	u3()
	// Released: a waiter gets it.
	var got atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		u, err := tr.Lock(context.Background(), "k")
		if err == nil {
			got.Store(true)
			u()
		}
	}()
	time.Sleep(20 * time.Millisecond)
	if got.Load() {
		t.Fatal("waiter got the lock before release")
	}
	unlock()
	<-done
	if !got.Load() {
		t.Fatal("waiter never got the lock")
	}
}

func TestErrorsNameTheTarget(t *testing.T) {
	tr, base := open(t)
	err := tr.WriteAtomic("missing/f", []byte("x"))
	if want := "write " + filepath.Join(base, "missing", "f") + ": no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("WriteAtomic error %q, want %q", err, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("errors.Is(%v, ErrNotExist) = false", err)
	}
	_, err = tr.Deliver("missing", []byte("x"), func() string { return "m.md" })
	if want := "deliver to " + filepath.Join(base, "missing") + ": no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("Deliver error %q, want %q", err, want)
	}
	os.WriteFile(filepath.Join(base, "file"), nil, 0o666)
	err = tr.MkdirAll("file/sub")
	if want := "mkdir " + filepath.Join(base, "file", "sub") + ": not a directory"; err == nil || err.Error() != want {
		t.Errorf("MkdirAll error %q, want %q", err, want)
	}
}

func TestReadDir(t *testing.T) {
	tr, base := open(t)
	dir := filepath.Join(base, "a", "in")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o777)
	os.WriteFile(filepath.Join(dir, "f.md"), []byte("12345"), 0o666)
	os.Symlink("f.md", filepath.Join(dir, "link.md"))
	syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o666)
	// Run from another folder: Info must not resolve against the cwd.
	t.Chdir(t.TempDir())
	entries, err := tr.ReadDir("a/in")
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]fs.FileMode{}
	for _, e := range entries {
		types[e.Name()] = e.Type()
		fi, err := e.Info()
		if err != nil {
			t.Errorf("%s: Info: %v", e.Name(), err)
			continue
		}
		if fi.Mode().Type() != e.Type() || fi.Name() != e.Name() {
			t.Errorf("%s: Info mode %v, Type %v", e.Name(), fi.Mode(), e.Type())
		}
		if e.Name() == "f.md" && fi.Size() != 5 {
			t.Errorf("f.md size %d", fi.Size())
		}
	}
	want := map[string]fs.FileMode{"sub": fs.ModeDir, "f.md": 0, "link.md": fs.ModeSymlink, "fifo.md": fs.ModeNamedPipe}
	if fmt.Sprint(types) != fmt.Sprint(want) {
		t.Errorf("types %v, want %v", types, want)
	}
	if _, err := tr.ReadDir("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing folder: %v", err)
	}
	os.Symlink(t.TempDir(), filepath.Join(base, "out"))
	if _, err := tr.ReadDir("out"); err == nil {
		t.Error("ReadDir followed a symlink out of the tree")
	}
}

func BenchmarkReadDir10000(b *testing.B) {
	base := b.TempDir()
	tr, _ := Open(base)
	defer tr.Close()
	tr.MkdirAll("in")
	for i := range 10000 {
		os.WriteFile(filepath.Join(base, "in", fmt.Sprintf("%013d-abcdef.md", i)), nil, 0o666)
	}
	b.ReportAllocs()
	for b.Loop() {
		if e, err := tr.ReadDir("in"); err != nil || len(e) != 10000 {
			b.Fatal(err)
		}
	}
}

func TestSub(t *testing.T) {
	tr, base := open(t)
	os.MkdirAll(filepath.Join(base, "bob", "inbox"), 0o777)
	os.WriteFile(filepath.Join(base, "bob", "inbox", "m.md"), []byte("x"), 0o666)
	os.WriteFile(filepath.Join(base, "secret"), []byte("s"), 0o666)
	os.Symlink("../../secret", filepath.Join(base, "bob", "inbox", "up.md"))
	sub, err := tr.Sub("bob/inbox")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if data, _, err := sub.ReadRegular("m.md"); err != nil || string(data) != "x" {
		t.Errorf("ReadRegular(m.md) = %q, %v", data, err)
	}
	if sub.Base() != filepath.Join(base, "bob", "inbox") {
		t.Errorf("Base = %q", sub.Base())
	}
	for _, rel := range []string{"up.md", "../../secret", "/secret"} {
		if data, _, err := sub.ReadRegular(rel); err == nil {
			t.Errorf("ReadRegular(%q) escaped the folder: %q", rel, data)
		}
	}
	if _, err := tr.Sub("bob/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Sub of a missing folder: %v", err)
	}
}

// A delivery temp whose writer was killed goes at the next delivery once
// OrphanTempAge old; one whose writer still runs stays until
// StaleTempAge (it used to be 36 h for both).
func TestOrphanTemps(t *testing.T) {
	gone := exec.Command("true") // a real process that has exited
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead, alive := gone.Process.Pid, os.Getpid()
	tr, base := open(t)
	tr.MkdirAll("in")
	dir := filepath.Join(base, "in")
	now := time.Now()
	temp := func(tag string, pid int) string {
		return fmt.Sprintf(".st-1714826789012-%s.md.%d.tmp", tag, pid)
	}
	files := []struct {
		name string
		age  time.Duration
		kept bool
	}{
		{temp("aaaaaa", dead), 2 * OrphanTempAge, false},                // writer gone: removed
		{temp("bbbbbb", dead), OrphanTempAge / 4, true},                 // writer gone, but too fresh
		{temp("cccccc", alive), 2 * OrphanTempAge, true},                // writer alive: kept
		{temp("dddddd", alive), StaleTempAge + time.Minute, false},      // alive but stale: removed
		{".st-1714826789012-eeeeee.md.x1.tmp", 2 * OrphanTempAge, true}, // no PID: kept
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		os.WriteFile(p, []byte("x"), 0o666)
		os.Chtimes(p, now.Add(-f.age), now.Add(-f.age))
	}
	if _, err := tr.Deliver("in", []byte("m"), func() string { return "1714826789013-ffffff.md" }); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(dir, f.name))
		if kept := err == nil; kept != f.kept {
			t.Errorf("%s (%v old): kept %v, want %v", f.name, f.age, kept, f.kept)
		}
	}
}
