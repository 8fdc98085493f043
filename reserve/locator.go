package reserve

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Locator locates many paths as Locate does, remembering each folder it
// resolved: a call naming thousands of files in a few folders costs a
// few look-ups, not a walk up the tree per file, and a folder that does
// not exist costs none for what is under it.
type Locator struct {
	wait  time.Duration
	dirs  map[string]located
	where map[string]Where // by top level
}

// located is one path resolved: its symlinks resolved, whether it
// exists, and the repository holding it.
type located struct {
	real   string
	exists bool
	top    string // "" outside any repository
}

// NewLocator returns a Locator that identifies repositories within wait
// (Identify).
func NewLocator(wait time.Duration) *Locator {
	return &Locator{wait: wait, dirs: map[string]located{}, where: map[string]Where{}}
}

// Locate returns the repository holding the absolute path p and p
// relative to its top level, slash-separated, as Locate does.
func (l *Locator) Locate(p string) (repo Where, rel string, ok bool) {
	p = filepath.Clean(p)
	at := l.step(l.resolve(filepath.Dir(p)), p) // the file itself is not remembered: only its folder is asked again
	if at.top == "" {
		return Where{}, "", false
	}
	r, err := filepath.Rel(at.top, at.real)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return Where{}, "", false
	}
	w, seen := l.where[at.top]
	if !seen {
		w = Identify(at.top, l.wait)
		l.where[at.top] = w
	}
	return w, filepath.ToSlash(r), true
}

// resolve resolves p from its parent's answer: one Lstat for a path
// whose parent exists, none for one whose parent does not.
func (l *Locator) resolve(p string) located {
	if at, ok := l.dirs[p]; ok {
		return at
	}
	parent := filepath.Dir(p)
	var at located
	if parent == p {
		at = located{real: p, exists: true}
		if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
			at.top = p
		}
		l.dirs[p] = at
		return at
	}
	at = l.step(l.resolve(parent), p)
	l.dirs[p] = at
	return at
}

// step resolves p from up, its parent resolved.
func (l *Locator) step(up located, p string) located {
	at := located{real: filepath.Join(up.real, filepath.Base(p)), top: up.top}
	if !up.exists {
		return at
	}
	fi, err := os.Lstat(at.real)
	switch {
	case err != nil:
	case fi.Mode()&os.ModeSymlink != 0:
		if r, err := filepath.EvalSymlinks(at.real); err == nil {
			at.real, at.exists = r, true
			at.top, _ = FindRepo(r)
		}
	case fi.IsDir():
		at.exists = true
		if _, err := os.Lstat(filepath.Join(at.real, ".git")); err == nil {
			at.top = at.real
		}
	default:
		at.exists = true
	}
	return at
}
