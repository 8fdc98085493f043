// Command readfloor is the floor for `st message ls --json`: it lists one
// folder and opens and reads every file in it with the parallelism st
// uses (min(4, 1+n/256) goroutines, one handle on the folder, openat,
// one read, close), and does nothing else. Given several folders it reads
// them one after the other (the floor of `st message search --all`).
// Used by scripts/bench.
package main

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: readfloor DIR...")
		os.Exit(2)
	}
	files, total := 0, 0
	for _, d := range os.Args[1:] {
		n, bytes := readAll(d)
		files += n
		total += bytes
	}
	fmt.Println(files, "files,", total, "bytes")
}

// readAll reads every file of folder d; it returns how many and their bytes.
func readAll(d string) (files, total int) {
	dir, err := os.Open(d)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readfloor:", err)
		os.Exit(1)
	}
	names, err := dir.Readdirnames(-1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readfloor:", err)
		os.Exit(1)
	}
	dirfd := int(dir.Fd())
	workers := min(4, 1+len(names)/256)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for w := range workers {
		wg.Go(func() {
			buf := make([]byte, 64<<10)
			n := 0
			for i := w; i < len(names); i += workers {
				fd, err := syscall.Openat(dirfd, names[i], syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
				if err != nil {
					continue
				}
				r, _ := syscall.Read(fd, buf)
				n += max(r, 0)
				_ = syscall.Close(fd) // read only, as st reads
			}
			mu.Lock()
			total += n
			mu.Unlock()
		})
	}
	wg.Wait()
	_ = dir.Close() // read only
	return len(names), total
}
