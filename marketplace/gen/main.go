// Command gen writes the plugin marketplace files
// (marketplace.Files) into the repository whose top level it is given
// (default: the current folder), replacing what is there. Run it with
// `go generate ./marketplace` after changing a client's hooks.
package main

import (
	"fmt"
	"os"
	"path"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/marketplace"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	if err := write(root); err != nil {
		fmt.Fprintln(os.Stderr, "marketplace/gen:", err)
		os.Exit(1)
	}
}

func write(root string) error {
	files, err := marketplace.Files()
	if err != nil {
		return err
	}
	tree, err := fsutil.Open(root)
	if err != nil {
		return err
	}
	defer func() { _ = tree.Close() }() // read-only use of the handle
	for _, f := range files {
		if err := tree.MkdirAll(path.Dir(f.Path)); err != nil {
			return err
		}
		if err := tree.WriteAtomic(f.Path, f.Data); err != nil {
			return err
		}
	}
	return nil
}
