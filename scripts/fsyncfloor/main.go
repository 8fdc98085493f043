// Command fsyncfloor is the floor for `st message send`: it delivers one
// small file into DIR the way st does (temp file, write, fsync, link to
// its final name, unlink the temp, fsync the folder) and does nothing
// else. Its time less emptygo's is the cost of the two fsyncs any
// durable delivery must pay. Used by scripts/bench.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fsyncfloor DIR")
		os.Exit(2)
	}
	if err := deliver(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "fsyncfloor:", err)
		os.Exit(1)
	}
}

func deliver(dir string) error {
	name := strconv.FormatInt(time.Now().UnixNano(), 10) + "-" + strconv.Itoa(os.Getpid()) + ".md"
	tmp := filepath.Join(dir, "."+name+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.WriteString("---\nfrom: alice\nto: bob\n---\nx\n"); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	if err := os.Remove(tmp); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }() // a folder opened to sync it
	return d.Sync()
}
