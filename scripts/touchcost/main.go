// Command touchcost measures what a first touch of memory costs on this
// machine, the cost that dominates a short process's start: a page of
// the binary faulted in (the kernel maps 64 KiB around it), a page the
// kernel has already mapped (on a VM with shadow page tables, the
// hypervisor still fills its own entry at the first touch), and a page
// of fresh anonymous memory (heap, stacks). It maps FILE (default: this
// program) and prints microseconds per touch, as the median of five
// rounds. Used by docs/performance.md.
package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"syscall"
	"time"
	"unsafe"
)

const (
	madvPopulateRead  = 22
	madvPopulateWrite = 23
	region            = 4 << 20
	rounds            = 5
)

func main() {
	name := os.Args[0]
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "touchcost:", err)
		os.Exit(1)
	}
	defer func() { _ = f.Close() }() // opened for reading only
	fi, err := f.Stat()
	if err != nil || fi.Size() < region {
		fmt.Fprintf(os.Stderr, "touchcost: %s: need a file of at least %d bytes\n", name, region)
		os.Exit(1)
	}
	fd := int(f.Fd())
	fmt.Printf("file %s, first %d KiB; µs per touch, median of %d rounds\n", name, region>>10, rounds)
	for _, stride := range []int{64 << 10, 32 << 10, 4 << 10} {
		faulted := median(func() time.Duration { return touchFile(fd, stride, false) })
		mapped := median(func() time.Duration { return touchFile(fd, stride, true) })
		fmt.Printf("file, every %2d KiB: %6.2f faulting, %6.2f already mapped (MADV_POPULATE_READ first)\n",
			stride>>10, us(faulted, region/stride), us(mapped, region/stride))
	}
	faulted := median(func() time.Duration { return touchAnon(false) })
	mapped := median(func() time.Duration { return touchAnon(true) })
	fmt.Printf("anonymous, every 4 KiB: %6.2f faulting, %6.2f already mapped (MADV_POPULATE_WRITE first)\n",
		us(faulted, region/4096), us(mapped, region/4096))
}

// touchFile maps the file's first region afresh and reads a byte every
// stride, after populating the mapping when populate is set.
func touchFile(fd, stride int, populate bool) time.Duration {
	m := mapRegion(fd, syscall.PROT_READ, syscall.MAP_PRIVATE)
	return touch(m, stride, populate, madvPopulateRead, false)
}

// touchAnon maps fresh anonymous memory and writes a byte to each page
// (a read would map the shared zero page instead).
func touchAnon(populate bool) time.Duration {
	m := mapRegion(-1, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	return touch(m, 4096, populate, madvPopulateWrite, true)
}

func mapRegion(fd, prot, flags int) []byte {
	m, err := syscall.Mmap(fd, 0, region, prot, flags)
	if err != nil {
		fmt.Fprintln(os.Stderr, "touchcost: mmap:", err)
		os.Exit(1)
	}
	return m
}

// touch times a read or a write of a byte every stride of m, populated
// first with advice when populate is set, and unmaps m.
func touch(m []byte, stride int, populate bool, advice uintptr, write bool) time.Duration {
	defer func() { _ = syscall.Munmap(m) }() // a mapping of our own: nothing to lose
	if populate {
		advise(m, advice)
	}
	var sum byte
	start := time.Now()
	for i := 0; i < len(m); i += stride {
		if write {
			m[i] = 1
		} else {
			sum += m[i]
		}
	}
	elapsed := time.Since(start)
	runtime.KeepAlive(sum) // the reads must happen
	return elapsed
}

func advise(m []byte, advice uintptr) {
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), advice); errno != 0 {
		fmt.Fprintln(os.Stderr, "touchcost: madvise:", errno)
		os.Exit(1)
	}
}

func median(run func() time.Duration) time.Duration {
	var d []time.Duration
	for range rounds {
		d = append(d, run())
	}
	slices.Sort(d)
	return d[len(d)/2]
}

func us(d time.Duration, touches int) float64 {
	return float64(d.Microseconds()) / float64(touches)
}
