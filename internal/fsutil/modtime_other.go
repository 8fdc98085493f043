//go:build !linux

package fsutil

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// setModTime sets the open file's access and modification times to at.
func setModTime(f *os.File, at time.Time) error {
	tv := unix.NsecToTimeval(at.UnixNano())
	return unix.Futimes(int(f.Fd()), []unix.Timeval{tv, tv})
}
