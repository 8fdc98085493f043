//go:build linux && !amd64 && !arm64

package heapstart

import "syscall"

// madvise is the madvise system call; it returns the call's errno, 0 on
// success. Elsewhere than amd64 and arm64 it goes through package
// syscall, whose initialiser then runs first.
func madvise(addr, length, advice uintptr) (errno uintptr) {
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, length, advice)
	return uintptr(e)
}
