package hooks

import (
	"syscall"
	"testing"
	"unsafe"
)

// opens counts the opens of each path while fn runs, by inotify: a file,
// or a folder (opened to be listed, or a file in it opened).
func opens(t *testing.T, paths []string, fn func()) map[string]int {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	defer syscall.Close(fd)
	watched := map[int32]string{}
	for _, p := range paths {
		wd, err := syscall.InotifyAddWatch(fd, p, syscall.IN_OPEN)
		if err != nil {
			t.Fatal(err)
		}
		watched[int32(wd)] = p
	}
	fn()
	count := map[string]int{}
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EAGAIN {
			return count
		}
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			count[watched[ev.Wd]]++
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}
