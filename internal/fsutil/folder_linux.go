package fsutil

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// readAtMost opens name relative to the open folder dir with O_NOFOLLOW
// (a single path element cannot leave the folder, and a final symlink is
// refused) and O_NONBLOCK (a FIFO cannot hang us), checks that it is a
// regular file and reads it, or its first limit bytes when limit >= 0:
// four system calls, where a path through os.Root and an *os.File take
// about twice as many. It returns the file's size too.
func readAtMost(dir *os.File, name string, limit int64) ([]byte, int64, error) {
	fd, err := openIn(dir, name)
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = syscall.Close(fd) }() // opened for reading only
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, 0, vanished(err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, 0, ErrNotRegular
	}
	if limit >= 0 && st.Size >= limit {
		buf := make([]byte, limit)
		n, err := readFull(fd, buf)
		return buf[:n], st.Size, vanished(err)
	}
	buf := make([]byte, 0, st.Size+1)
	for {
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, 0, vanished(err)
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

// readStart reads the start of name, relative to the open folder dir,
// into buf until buf is full or the file ends: open, read, close, and no
// fstat (the caller's listing vouches for the type; see Folder.ReadStart).
func readStart(dir *os.File, name string, buf []byte) (int, error) {
	fd, err := openIn(dir, name)
	if err != nil {
		return 0, err
	}
	defer func() { _ = syscall.Close(fd) }() // opened for reading only
	n, err := readOnce(fd, buf)
	switch {
	case err == syscall.EISDIR || err == syscall.EAGAIN:
		// A folder, or a FIFO with a writer, took the name's place.
		return 0, ErrNotRegular
	case err != nil:
		return 0, err
	}
	return n, nil
}

// openIn opens name relative to the open folder dir, read-only, with
// O_NOFOLLOW (a final symlink is ErrNotRegular) and O_NONBLOCK (a FIFO
// cannot hang us).
func openIn(dir *os.File, name string) (int, error) {
	rc, err := dir.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var openErr error
	if err := rc.Control(func(dfd uintptr) {
		fd, openErr = openat(int(dfd), name)
	}); err != nil {
		return -1, err
	}
	if errors.Is(openErr, syscall.ELOOP) {
		return -1, ErrNotRegular
	}
	return fd, openErr
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

// readOnce reads into buf with one read: a short read of a regular file
// is its end (as in readAtMost), so a file smaller than buf costs one
// read, not a second one that returns 0 (a tenth of the system calls of
// a listing).
func readOnce(fd int, buf []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, buf)
		if err != syscall.EINTR {
			return max(n, 0), err
		}
	}
}

func openat(dfd int, name string) (int, error) {
	for {
		fd, err := syscall.Openat(dfd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// listRegular returns the names of the regular files in the open folder
// dir, unsorted. It parses the kernel's listing itself, with a buffer
// eight times os.File's: through Tree.ReadDir a 10,000-message inbox took
// 60 getdents calls and a name, a DirEntry and a joined path per entry
// (`message ls --count`: 42 ms of CPU), and takes 8 calls and one string
// per entry here (21 ms). An entry whose type the file system does not
// report is lstat'ed.
func listRegular(dir *os.File) ([]string, error) {
	return listNames(dir, func(fd int, name []byte, typ byte) bool {
		if typ == syscall.DT_UNKNOWN {
			var st unix.Stat_t
			if unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
				return false // gone since the listing
			}
			return st.Mode&unix.S_IFMT == unix.S_IFREG
		}
		return typ == syscall.DT_REG
	})
}

// listAll lists every name in the open folder dir.
func listAll(dir *os.File) ([]string, error) {
	return listNames(dir, func(int, []byte, byte) bool { return true })
}

// listPrefixed lists the names in the open folder dir that start with
// prefix, whatever their type, allocating only those: the temp files
// a write sweeps are a few names among thousands.
func listPrefixed(dir *os.File, prefix string) ([]string, error) {
	return listNames(dir, func(_ int, name []byte, _ byte) bool {
		return bytes.HasPrefix(name, []byte(prefix))
	})
}

// listNames lists the names of the open folder dir that keep keeps,
// given the folder's descriptor and the entry's type from the listing.
func listNames(dir *os.File, keep func(fd int, name []byte, typ byte) bool) ([]string, error) {
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, err
	}
	var names []string
	var listErr error
	if err := rc.Control(func(fd uintptr) {
		names, listErr = getdents(int(fd), keep)
	}); err != nil {
		return nil, err
	}
	return names, listErr
}

// getdents reads a folder's entries 8 KiB at a time, then, for a folder
// that fills that, 64 KiB at a time: the hooks list small folders (an
// inbox, a session's state) in a short process where each new page of a
// buffer is a page fault, and a large folder still takes few calls.
func getdents(fd int, keep func(fd int, name []byte, typ byte) bool) ([]string, error) {
	buf := make([]byte, 8<<10)
	var names []string
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		// struct linux_dirent64: ino u64, off s64, reclen u16, type u8,
		// name NUL-terminated.
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:]))
			if reclen < 19 || reclen > len(b) {
				return nil, syscall.EIO
			}
			ino, typ, name := binary.NativeEndian.Uint64(b), b[18], b[19:reclen]
			b = b[reclen:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ino == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			if keep(fd, name, typ) {
				names = append(names, string(name))
			}
		}
		if n > len(buf)/2 && len(buf) < 64<<10 {
			buf = make([]byte, 64<<10) // a large folder
		}
	}
}

// isRegular stats name in the open folder dir without following it: one
// fstatat on the folder's descriptor, no path walk and no FileInfo.
func isRegular(dir *os.File, name string) bool {
	st, err := lstatIn(dir, name)
	return err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG
}

// regularStat is name's size and modification time when it is a regular
// file of the open folder dir (a final symlink is not followed).
func regularStat(dir *os.File, name string) (int64, time.Time, bool) {
	st, err := lstatIn(dir, name)
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, time.Time{}, false
	}
	return st.Size, time.Unix(st.Mtim.Unix()), true
}

// lstatMode is name's type and modification time in the open folder dir
// (a final symlink is not followed).
func lstatMode(dir *os.File, name string) (fs.FileMode, time.Time, bool) {
	st, err := lstatIn(dir, name)
	if err != nil {
		return 0, time.Time{}, false
	}
	return fileMode(st.Mode), time.Unix(st.Mtim.Unix()), true
}

// fileMode is the type of a stat's mode as fs.FileMode gives it; the
// permission bits are left out, as no caller reads them.
func fileMode(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	}
	return fs.ModeDevice
}

// lstatIn stats name of the open folder dir without following a final
// symlink: one system call.
func lstatIn(dir *os.File, name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	rc, err := dir.SyscallConn()
	if err != nil {
		return st, err
	}
	var statErr error = syscall.ENOENT
	if err := rc.Control(func(fd uintptr) {
		statErr = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}); err != nil {
		return st, err
	}
	return st, statErr
}
