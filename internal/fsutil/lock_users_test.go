package fsutil

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// asOtherUser runs a shell script as another Unix account (nobody), the
// neighbour on a machine several people share.
func asOtherUser(t *testing.T, script string) {
	t.Helper()
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no second account to act as: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	cmd := exec.Command("sh", "-ec", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

// sharedTemp is a temp folder every account may write, sticky as /tmp is,
// set as TMPDIR.
func sharedTemp(t *testing.T) string {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root, to act as a second Unix user (setuid) beside this one")
	}
	dir, err := os.MkdirTemp("", "st-shared-tmp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o1777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", dir)
	return dir
}

func TestLockRefusesAFolderAnotherUserMade(t *testing.T) {
	tmp := sharedTemp(t)
	tr, _ := open(t)
	dir := lockDir(tr.base)
	top := filepath.Dir(dir)
	planted := filepath.Join(t.TempDir(), "planted-in-home")

	tests := []struct {
		name, script string
	}{
		{"open folder with a planted link", "mkdir -m 0777 -p " + dir + " && chmod 0777 " + top + " && ln -s " + planted + " " + dir + "/k.lock"},
		{"private folder of theirs", "mkdir -m 0700 " + top},
		{"link to a folder of theirs", "mkdir -m 0700 " + tmp + "/theirs && ln -s " + tmp + "/theirs " + top},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range []string{top, tmp + "/theirs"} {
				if err := os.RemoveAll(d); err != nil {
					t.Fatal(err)
				}
			}
			asOtherUser(t, tt.script)
			unlock, err := tr.Lock(context.Background(), "k")
			if err == nil {
				unlock()
				t.Fatal("Lock used a folder another account made")
			}
			if !strings.Contains(err.Error(), top) {
				t.Errorf("error does not name the folder: %v", err)
			}
			if _, err := os.Lstat(planted); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Lock created the file a planted link points at (%v)", err)
			}
		})
	}
}

func TestLockMakesPrivateFolders(t *testing.T) {
	sharedTemp(t)
	tr, _ := open(t)
	unlock, err := tr.Lock(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	dir := lockDir(tr.base)
	for _, d := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Lstat(d)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != fs.ModeDir|0o700 {
			t.Errorf("%s: mode %v, want drwx------", d, fi.Mode())
		}
	}
	// A link in st's own folder (however it got there) is not followed.
	planted := filepath.Join(t.TempDir(), "target")
	if err := os.Symlink(planted, filepath.Join(dir, "link.lock")); err != nil {
		t.Fatal(err)
	}
	if unlock, err := tr.Lock(context.Background(), "link"); err == nil {
		unlock()
		t.Error("Lock followed a link")
	}
	if _, err := os.Lstat(planted); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lock created the link's target (%v)", err)
	}
	// Made by this user but open to others: refused until chmod 700.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if unlock, err := tr.Lock(context.Background(), "k"); err == nil {
		unlock()
		t.Error("Lock used a folder others may enter")
	} else if !strings.Contains(err.Error(), "chmod 700") {
		t.Errorf("error does not say how to fix it: %v", err)
	}
}

// BenchmarkLock is one take and release of a local lock: the folder
// checks (two mkdir and two lstat) are on every take.
func BenchmarkLock(b *testing.B) {
	tr, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	for b.Loop() {
		unlock, err := tr.Lock(context.Background(), "bench")
		if err != nil {
			b.Fatal(err)
		}
		unlock()
	}
}
