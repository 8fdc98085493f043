package glustertest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestSetupStartsADeadBrick: a volume whose brick process died while
// glusterd still counts it started (the brick killed with the session
// that started it), its pid since taken by another process, is brought
// back by the next setup. On a volume of its own, so the other packages'
// tests keep theirs.
func TestSetupStartsADeadBrick(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: GlusterFS tests are not short")
	}
	const vol = "stvol-brick-death"
	s, err := setup(vol, options{QuickRead: "off"}, 1)
	if errors.Is(err, ErrUnavailable) {
		t.Skipf("skipping: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, err := gluster("volume", "status", vol)
	if err != nil {
		t.Fatal(err)
	}
	pid := brickPID(out)
	if pid <= 0 {
		t.Fatalf("no brick process in:\n%s", out)
	}
	if err := unix.Kill(pid, unix.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for range 100 { // until glusterd sees it gone
		if out, err := gluster("volume", "status", vol); err == nil && !brickOnline(out) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Its pid taken by another process, as happens after a while:
	// glusterd then counts the brick running.
	files, _ := filepath.Glob(filepath.Join(brickPIDFiles, vol, "*.pid"))
	if len(files) == 0 {
		t.Fatalf("no brick pid file in %s", filepath.Join(brickPIDFiles, vol))
	}
	for _, f := range files {
		if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err = setup(vol, options{QuickRead: "off"}, 1)
	if err != nil {
		t.Fatalf("setup after the brick died: %v", err)
	}
	defer s.Close()
	if err := os.WriteFile(filepath.Join(s.Dirs[0], "f"), []byte("back"), 0o666); err != nil {
		t.Fatalf("write through the mount after the brick came back: %v", err)
	}
}

// brickPID reads the brick process's pid from `gluster volume status`, 0
// when its line has none.
func brickPID(status string) int {
	for _, line := range strings.Split(status, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.HasPrefix(line, "Brick ") {
			pid, _ := strconv.Atoi(f[len(f)-1])
			return pid
		}
	}
	return 0
}
