package glustertest

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestMountsShareOneVolume: a file written through one mount is read
// through the other, and a flock taken through one excludes the other.
func TestMountsShareOneVolume(t *testing.T) {
	s := ForTest(t, 2)
	if err := os.WriteFile(filepath.Join(s.Dirs[0], "f"), []byte("hello"), 0o666); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(s.Dirs[1], "f"))
	if err != nil || string(got) != "hello" {
		t.Fatalf("read through mount 1: %q, %v", got, err)
	}
	open := func(d string) *os.File {
		f, err := os.OpenFile(filepath.Join(d, "lock"), os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(s.Dirs[0]), open(s.Dirs[1])
	if err := unix.Flock(int(a.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(b.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != unix.EWOULDBLOCK {
		t.Fatalf("second mount's flock while the first holds it: %v, want EWOULDBLOCK", err)
	}
	// Released as st releases its locks: an explicit unlock, which FUSE
	// answers before it returns (the release a bare close sends is not
	// waited for, and another mount may still see the lock held).
	if err := unix.Flock(int(a.Fd()), unix.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(b.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatalf("flock after release: %v", err)
	}
}

// TestCloseLeavesNoMount: Close unmounts and removes the mount points.
func TestCloseLeavesNoMount(t *testing.T) {
	s := ForTest(t, 2)
	mounts := append([]string(nil), s.Mounts...)
	s.Close()
	for _, mp := range mounts {
		if _, err := os.Stat(mp); !os.IsNotExist(err) {
			t.Errorf("%s after Close: %v", mp, err)
		}
	}
}
