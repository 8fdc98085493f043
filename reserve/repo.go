package reserve

import (
	"io/fs"
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
// repository and the repository-relative pattern to reserve. A trailing
// slash always means a folder and everything under it; so does a literal
// arg naming an existing folder. A literal arg naming nothing yet is
// reserved in its folder form too (name/**, which covers a file of that
// name as well as everything under a folder of that name), so that
// reserving a package before creating it keeps others out of it.
func Pattern(cwd, arg string) (repo Where, pattern string, err error) {
	if arg == "" {
		return Where{}, "", badPattern(arg, "empty")
	}
	if hasMeta(arg) {
		for _, s := range strings.Split(filepath.ToSlash(arg), "/") {
			if s == ".." {
				return Where{}, "", badPattern(arg, "'..' leaves the folder")
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
	top, rel, ok := Locate(dir)
	if !ok {
		return Where{}, "", sterr.New(NotInRepo, "not inside a git repository: "+dir+" (reservations are relative to a repository's top level)",
			map[string]any{"path": dir})
	}
	pattern = strings.Join(segs[head:], "/")
	if rel != "." {
		pattern = path.Join(rel, pattern)
	}
	if _, err := Parse(pattern); err != nil && rel != "." {
		return Where{}, "", err
	}
	if head == len(segs) {
		switch {
		case rel == ".":
			pattern = "."
		case strings.HasSuffix(arg, "/"):
			pattern += "/"
		default:
			if fi, err := os.Stat(filepath.Join(top, filepath.FromSlash(rel))); err != nil || fi.IsDir() {
				pattern += "/"
			}
		}
	} else if strings.HasSuffix(arg, "/") {
		pattern += "/"
	}
	g, err := Parse(pattern)
	if err != nil {
		return Where{}, "", err
	}
	return Identify(top, CommandWait), g.String(), nil
}

// walkLimit bounds the entries OnDisk looks at: past it, it assumes
// that something matches.
const walkLimit = 20000

// OnDisk reports whether pattern (relative to top) matches an existing
// file or folder under top. It looks at most at walkLimit entries from
// the pattern's literal folder down (the .git folder left out), and
// says yes when it had to stop.
func OnDisk(top, pattern string) bool {
	g, err := Parse(pattern)
	if err != nil {
		return true
	}
	src := g.String()
	i := strings.IndexAny(src, "*?")
	if i < 0 {
		_, err := os.Lstat(filepath.Join(top, filepath.FromSlash(src)))
		return err == nil
	}
	start := "." // the folder the wildcards start in
	if j := strings.LastIndex(src[:i], "/"); j >= 0 {
		start = src[:j]
	}
	seen, found := 0, false
	// The callback skips unreadable entries and stops with SkipAll, so
	// WalkDir has no error to return.
	_ = filepath.WalkDir(filepath.Join(top, filepath.FromSlash(start)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > walkLimit {
			found = true
			return filepath.SkipAll
		}
		rel, err := filepath.Rel(top, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if rel != "." && g.Match(rel) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}
