package heapstart

import "unsafe"

// madvCollapse is MADV_COLLAPSE from linux/mman.h, which package syscall
// does not define.
const madvCollapse = 25

// hugePage is the size of a transparent huge page on amd64, and on arm64
// with 4 KiB pages. With larger base pages a huge page is larger (512 MiB
// under 64 KiB pages), the block holds no whole one and the call fails.
const hugePage = 2 << 20

// first is a byte of heap allocated at the start, in the block to collapse:
// the runtime takes new spans from the lowest free address, so the block
// holding it is the one the initialisers and the command go on to fill.
var first *byte

func init() {
	first = new(byte)
	_ = collapse(first)
}

// collapse asks the kernel to back the huge-page-aligned block of heap
// holding p with one huge page; it returns the call's errno, 0 when done.
func collapse(p *byte) uintptr {
	block := uintptr(unsafe.Pointer(p)) &^ (hugePage - 1)
	return madvise(block, hugePage, madvCollapse)
}
