package fsutil

import (
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// setModTime sets the open file's access and modification times to at
// (futimens: utimensat on the descriptor itself, no path).
func setModTime(f *os.File, at time.Time) error {
	ts := unix.NsecToTimespec(at.UnixNano())
	times := [2]unix.Timespec{ts, ts}
	_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, f.Fd(), 0, uintptr(unsafe.Pointer(&times[0])), 0, 0, 0)
	if errno != 0 {
		return &os.PathError{Op: "futimens", Path: f.Name(), Err: errno}
	}
	return nil
}
