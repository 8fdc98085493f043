package fsutil

import (
	"os"

	"golang.org/x/sys/unix"
)

// Probe checks that st can write in the existing folder dir: it creates
// a temp dot-file there (named like every temp file, so a crash leaves
// nothing a reader takes for data), writes a byte, and removes it. It
// returns the bytes free to an unprivileged writer on dir's filesystem.
// `st hooks doctor` uses it on the store and the state folder, where a
// hook's failed write would pass unnoticed.
func Probe(dir string) (free uint64, err error) {
	f, err := os.CreateTemp(dir, ".st-probe-*.tmp")
	if err != nil {
		return 0, err
	}
	_, err = f.Write([]byte{'\n'})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	if err != nil {
		return 0, err
	}
	return FreeBytes(dir)
}

// FreeBytes is the space free to an unprivileged writer on path's
// filesystem.
func FreeBytes(path string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
