package fsutil

import (
	"errors"
	"os"
	"syscall"
)

// readAtMost opens name relative to the open folder dir with O_NOFOLLOW
// (a single path element cannot leave the folder, and a final symlink is
// refused) and O_NONBLOCK (a FIFO cannot hang us), checks that it is a
// regular file and reads it, or its first limit bytes when limit >= 0:
// four system calls, where a path through os.Root and an *os.File take
// about twice as many. It returns the file's size too.
func readAtMost(dir *os.File, name string, limit int64) ([]byte, int64, error) {
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, 0, err
	}
	var fd int
	var openErr error
	if err := rc.Control(func(dfd uintptr) {
		fd, openErr = openat(int(dfd), name)
	}); err != nil {
		return nil, 0, err
	}
	if openErr != nil {
		if errors.Is(openErr, syscall.ELOOP) {
			return nil, 0, ErrNotRegular
		}
		return nil, 0, openErr
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, 0, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, 0, ErrNotRegular
	}
	if limit >= 0 && st.Size >= limit {
		buf := make([]byte, limit)
		n, err := readFull(fd, buf)
		return buf[:n], st.Size, err
	}
	buf := make([]byte, 0, st.Size+1)
	for {
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		buf = buf[:len(buf)+n]
		// A short read of a regular file is its end: the buffer has room
		// for one byte more than fstat's size, so the usual file takes
		// one read, and only a file that grew meanwhile takes more.
		if n == 0 || len(buf) < cap(buf) {
			return buf, st.Size, nil
		}
		if limit >= 0 && int64(len(buf)) >= limit {
			return buf[:limit], st.Size, nil
		}
		buf = append(buf, 0)[:len(buf)]
	}
}

// readFull fills buf from fd, stopping early only at the file's end.
func readFull(fd int, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		k, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		if k == 0 {
			break
		}
		n += k
	}
	return n, nil
}

func openat(dfd int, name string) (int, error) {
	for {
		fd, err := syscall.Openat(dfd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
