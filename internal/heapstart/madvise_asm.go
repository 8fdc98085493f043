//go:build linux && (amd64 || arm64)

package heapstart

// madvise is the madvise system call, made directly (madvise_linux_*.s)
// so that this package imports nothing and its initialiser runs before
// those of syscall and the packages it imports, whose allocations would
// otherwise each fault a page of the block before it is collapsed.
// It returns the call's errno, 0 on success. The runtime is not told the
// thread is in the kernel, as it is by package syscall: for one call of
// about 0.4 ms while the initialisers run, with nothing else to run, that
// costs nothing.
//
//go:noescape
func madvise(addr, length, advice uintptr) (errno uintptr)
