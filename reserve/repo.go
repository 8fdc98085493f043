package reserve

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/internal/sterr"
)

// NotInRepo is the error code for a path outside any git repository.
const NotInRepo = "NOT_IN_REPOSITORY"

// FindRepo returns the git top level holding path p (absolute; it need
// not exist yet): the nearest folder, from p's upwards, with a .git entry
// (a folder, or the file of a worktree or submodule). Symlinks are
// resolved first, so every agent names the same repository the same way.
// It asks no git process, which keeps the edit check fast. ok is false
// outside any repository.
func FindRepo(p string) (top string, ok bool) {
	dir := resolveExisting(filepath.Clean(p))
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// resolveExisting resolves the symlinks of p's longest existing prefix
// and keeps the rest of p as it is.
func resolveExisting(p string) string {
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// Locate returns the repository holding the absolute path p and p
// relative to its top level, slash-separated. ok is false outside any
// repository.
func Locate(p string) (repo, rel string, ok bool) {
	abs := resolveExisting(filepath.Clean(p))
	repo, ok = FindRepo(abs)
	if !ok {
		return "", "", false
	}
	r, err := filepath.Rel(repo, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return "", "", false
	}
	return repo, filepath.ToSlash(r), true
}

// hasMeta reports whether s holds a wildcard.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?") }

// Pattern turns arg, as given in folder cwd (absolute), into the
// repository and the repository-relative pattern to reserve. A literal
// arg naming an existing folder reserves the folder and everything under
// it.
func Pattern(cwd, arg string) (repo, pattern string, err error) {
	if arg == "" {
		return "", "", badPattern(arg, "empty")
	}
	if hasMeta(arg) {
		for _, s := range strings.Split(filepath.ToSlash(arg), "/") {
			if s == ".." {
				return "", "", badPattern(arg, "'..' leaves the folder")
			}
		}
	}
	// The wildcard-free head locates the repository; the rest is kept.
	full := arg
	if !filepath.IsAbs(full) {
		full = filepath.Join(cwd, arg)
	}
	full = filepath.ToSlash(full)
	segs := strings.Split(full, "/")
	head := len(segs)
	for i, s := range segs {
		if hasMeta(s) {
			head = i
			break
		}
	}
	dir := filepath.FromSlash(path.Clean("/" + strings.Join(segs[:head], "/")))
	repo, rel, ok := Locate(dir)
	if !ok {
		return "", "", sterr.New(NotInRepo, "not inside a git repository: "+dir+" (reservations are relative to a repository's top level)",
			map[string]any{"path": dir})
	}
	pattern = strings.Join(segs[head:], "/")
	if rel != "." {
		pattern = path.Join(rel, pattern)
	}
	if head == len(segs) {
		switch {
		case rel == ".":
			pattern = "."
		case strings.HasSuffix(arg, "/"):
			pattern += "/"
		default:
			if fi, err := os.Stat(filepath.Join(repo, filepath.FromSlash(rel))); err == nil && fi.IsDir() {
				pattern += "/"
			}
		}
	} else if strings.HasSuffix(arg, "/") {
		pattern += "/"
	}
	g, err := Parse(pattern)
	if err != nil {
		return "", "", err
	}
	return repo, g.String(), nil
}
