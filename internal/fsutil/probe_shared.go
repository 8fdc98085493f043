package fsutil

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// ProbeShared checks in the existing folder dir that the primitives st
// builds on hold on its filesystem, with temp dot-files it removes
// again: an exclusive flock through one open of a file keeps a second
// open of it out until released (Lock), a link onto an existing name
// fails and leaves it alone (Deliver, MoveNoReplace), and a rename onto
// one replaces it whole (WriteAtomic). It is what `st hooks doctor` runs
// on a store on a shared filesystem. It cannot see another host: a
// filesystem whose locks are local to each client (NFS mounted with
// local_lock=flock, a FUSE daemon without lock support) passes here.
func ProbeShared(dir string) error {
	base := filepath.Join(dir, fmt.Sprintf(".st-probe-%d-%d", os.Getpid(), time.Now().UnixNano()))
	a, b := base+".a.tmp", base+".b.tmp"
	defer func() {
		_ = os.Remove(a) // the probe's own temp files; a leftover is swept as stale
		_ = os.Remove(b)
	}()
	for _, f := range []struct{ path, data string }{{a, "a"}, {b, "b"}} {
		if err := os.WriteFile(f.path, []byte(f.data), filePerm); err != nil {
			return err
		}
	}
	if err := probeLock(a); err != nil {
		return err
	}
	if err := os.Link(a, b); !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("a link onto an existing file did not fail with EEXIST (%v): delivery could replace a message", err)
	}
	if got, err := os.ReadFile(b); err != nil || string(got) != "b" {
		return fmt.Errorf("a refused link changed the file it was refused onto (%q, %v)", got, err)
	}
	if err := os.Rename(a, b); err != nil {
		return fmt.Errorf("rename onto an existing file: %v", err)
	}
	if got, err := os.ReadFile(b); err != nil || !bytes.Equal(got, []byte("a")) {
		return fmt.Errorf("rename did not replace the file (%q, %v)", got, err)
	}
	return nil
}

// probeLock opens path twice and checks that an exclusive flock through
// the first keeps the second out, and that releasing it lets it in.
func probeLock(path string) error {
	open := func() (*os.File, error) { return os.OpenFile(path, os.O_RDWR, 0) }
	f1, err := open()
	if err != nil {
		return err
	}
	defer closeQuietly(f1)
	f2, err := open()
	if err != nil {
		return err
	}
	defer closeQuietly(f2)
	if err := unix.Flock(int(f1.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return fmt.Errorf("flock: %v: st's locks cannot work here", err)
	}
	if err := unix.Flock(int(f2.Fd()), unix.LOCK_EX|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
		return fmt.Errorf("flock through a second open of a locked file did not wait (%v): st's locks exclude nothing here", err)
	}
	if err := unix.Flock(int(f1.Fd()), unix.LOCK_UN); err != nil {
		return fmt.Errorf("flock unlock: %v", err)
	}
	if err := unix.Flock(int(f2.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return fmt.Errorf("flock after the release: %v: a released lock stays held", err)
	}
	return nil
}
