package fsutil

import (
	"os"
	"strings"
	"sync"
)

// folderCache keeps open the top-level folders a reading view has
// walked into (Folders), so that reading many files of one agent opens
// its folder once instead of once per file: os.Root walks a path one
// folder at a time, opening each.
type folderCache struct {
	mu   sync.Mutex
	open map[string]*os.Root // nil: the folder could not be opened
}

// Folders is a view of t for a pass that reads many files in each of
// many top-level folders (st overview, st agents): every path under a
// top-level folder resolves from that folder, opened at its first use
// and kept until release. The view reads what t reads (a folder replaced
// during the pass is read as it was when first opened). Use it only to
// read; writes and the handle stay t's: call release, then close t.
func (t *Tree) Folders() (view *Tree, release func()) {
	v := *t
	c := &folderCache{open: map[string]*os.Root{}}
	v.folders = c
	return &v, c.close
}

// at returns the root to resolve rel from and rel relative to it: the
// cached top-level folder when the view keeps them (Folders), the
// tree's root otherwise. A path that names the folder itself, climbs out
// of it, or whose folder cannot be opened resolves from the root, as
// without the cache.
func (t *Tree) at(rel string) (*os.Root, string) {
	if t.folders == nil {
		return t.root, rel
	}
	top, rest, ok := strings.Cut(rel, "/")
	if !ok || top == "" || top == "." || top == ".." || rest == "" || strings.Contains(rest, "..") {
		return t.root, rel
	}
	if sub := t.folders.get(t.root, top); sub != nil {
		return sub, rest
	}
	return t.root, rel
}

// get returns the open folder top of root, opening it at its first use.
func (c *folderCache) get(root *os.Root, top string) *os.Root {
	c.mu.Lock()
	defer c.mu.Unlock()
	sub, seen := c.open[top]
	if !seen {
		sub, _ = openRoot(root, top) // unopenable: resolved from the root, which reports why
		c.open[top] = sub
	}
	return sub
}

func (c *folderCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for top, sub := range c.open {
		if sub != nil {
			_ = sub.Close() // read-only handles: nothing to lose
		}
		delete(c.open, top)
	}
}
