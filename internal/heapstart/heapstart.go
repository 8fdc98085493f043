// Package heapstart puts the start of the Go heap on one huge page, early
// in every st process.
//
// On a virtual machine a page fault costs about 20 µs, and a start is
// mostly page faults. The runtime's own start touches about 80 pages of
// heap (an empty Go program does as much); st's package initialisers and
// a command's work then touch 40 to 100 more, one fault each, in the same
// 2 MiB block. Collapsing that block into one transparent huge page
// (MADV_COLLAPSE, Linux 6.1) costs one system call of about 0.4 ms, and
// every later touch of the block is free: `st status` 1.76× → 1.56× an
// empty Go program, `st hook post-tool-use` 2.02× → 1.76×
// (docs/performance.md, "The heap on one huge page, and goroutines that
// grow once").
//
// The block takes up to 2 MiB of memory where about 0.7 MiB of it was
// touched. Where the kernel cannot (an older kernel, huge pages off, none
// free) the call fails and nothing changes. Imported for its initialiser
// alone by cmd/st, cmd/st-mcp and cmd/st-mcp-server (TestBinariesStartOnAHugePage
// checks each). On amd64 and arm64 it makes the system call itself and
// imports only unsafe, so its initialiser is the first after the
// runtime's: before it, syscall's and the standard packages' initialisers
// each faulted a page of the block (TestHeapStartRunsFirst).
package heapstart
