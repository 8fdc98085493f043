package reserve

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// Where is a repository as reservations name it: Top, its top level on
// this machine; ID, its root commit as "root:<hash>", which every clone
// shares wherever it sits; Origin, its origin remote's URL, normalised.
// ID and Origin are "" when unknown. Two reservations are in the same
// repository when their IDs, their origins or their tops are equal: the
// top covers files written before identities existed and repositories
// with neither a commit nor an origin.
type Where struct {
	Top    string
	ID     string
	Origin string
}

// Same reports whether a reservation made in (top, id, origin) is in w.
func (w Where) Same(top, id, origin string) bool {
	return w.ID != "" && w.ID == id || w.Origin != "" && w.Origin == origin || w.Top == top
}

// IDFile is the file, in a repository's git folder (the common one of
// its linked worktrees), where st keeps the repository's root commit
// once found: finding it asks git to walk the history, which an edit
// hook cannot afford on every call. It dies with the repository.
const IDFile = "st-repo-id"

// How long Identify lets git look for the root commit: a command can
// wait; a hook, which runs before every edit, gives up sooner and then
// leaves the question to a command for a while (unknownFor), using the
// origin and the path meanwhile. Only a history of millions of commits
// takes that long.
const (
	CommandWait = 30 * time.Second
	HookWait    = time.Second
	unknownFor  = time.Hour
)

// gitFileLimit bounds every read of a git file here: .git files, HEAD,
// commondir and the identity are a line; a config is rarely 10 KiB.
const gitFileLimit = 256 << 10

var idCache sync.Map // top -> root identity, for the life of a process

// Identify returns the repository whose top level is top. Its root
// commit (the smallest hash when its history has several roots) is read
// from IDFile when an earlier call stored it there; otherwise one git
// process finds it, within wait, and stores it.
func Identify(top string, wait time.Duration) Where {
	w := Where{Top: top}
	gitDir, common, ok := gitDirs(top)
	if !ok {
		return w
	}
	w.Origin = originURL(common)
	if id, ok := idCache.Load(top); ok {
		w.ID = id.(string)
		return w
	}
	w.ID = rootID(top, gitDir, common, wait)
	if w.ID != "" {
		idCache.Store(top, w.ID)
	}
	return w
}

// rootID is Identify's root commit, "" when unknown.
func rootID(top, gitDir, common string, wait time.Duration) string {
	if data, err := fsutil.ReadConfig(filepath.Join(common, IDFile), gitFileLimit); err == nil {
		kept := strings.TrimSpace(string(data))
		if validRootID(kept) {
			return kept
		}
		// A hook that gave up recently: hooks leave it to a command.
		if at, ok := strings.CutPrefix(kept, "unknown "); ok && wait < CommandWait {
			if sec, err := strconv.ParseInt(at, 10, 64); err == nil && time.Since(time.Unix(sec, 0)) < unknownFor {
				return ""
			}
		}
	}
	if !hasCommit(gitDir, common) {
		return ""
	}
	root, timedOut := rootCommit(top, wait)
	var keep string
	switch {
	case root != "":
		keep = "root:" + root
	case timedOut:
		keep = "unknown " + strconv.FormatInt(time.Now().Unix(), 10)
	default:
		return ""
	}
	if t, err := fsutil.Open(common); err == nil {
		_ = t.WriteAtomic(IDFile, []byte(keep+"\n")) // best effort: found again next time
		t.Close()
	}
	if root == "" {
		return ""
	}
	return keep
}

// validRootID reports whether s is a stored root identity.
func validRootID(s string) bool {
	h, ok := strings.CutPrefix(s, "root:")
	return ok && isHex(h) && (len(h) == 40 || len(h) == 64)
}

func isHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// gitDirs returns the git folder of the repository at top and its common
// folder: both top/.git for a plain clone; for a linked worktree or a
// submodule, whose .git is a file naming its git folder, that folder and
// the one its commondir file names.
func gitDirs(top string) (gitDir, common string, ok bool) {
	dotgit := filepath.Join(top, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return "", "", false
	}
	gitDir = dotgit
	if !fi.IsDir() {
		data, err := fsutil.ReadConfig(dotgit, gitFileLimit)
		if err != nil {
			return "", "", false
		}
		p, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return "", "", false
		}
		gitDir = strings.TrimSpace(p)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(top, gitDir)
		}
	}
	common = gitDir
	if data, err := fsutil.ReadConfig(filepath.Join(gitDir, "commondir"), gitFileLimit); err == nil {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	return gitDir, filepath.Clean(common), true
}

// hasCommit reports whether HEAD may name a commit, from the files
// alone, so that a repository without one costs no git process: a
// detached HEAD, or a branch with a loose ref; a packed-refs file or a
// reftable may hold the branch, which only git can say.
func hasCommit(gitDir, common string) bool {
	data, err := fsutil.ReadConfig(filepath.Join(gitDir, "HEAD"), gitFileLimit)
	if err != nil {
		return false
	}
	head := strings.TrimSpace(string(data))
	ref, ok := strings.CutPrefix(head, "ref:")
	if !ok {
		return isHex(head)
	}
	ref = filepath.FromSlash(strings.TrimSpace(ref))
	if !filepath.IsLocal(ref) {
		return false
	}
	for _, p := range []string{filepath.Join(gitDir, ref), filepath.Join(common, ref),
		filepath.Join(common, "packed-refs"), filepath.Join(common, "reftable")} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// rootCommit asks git for the root commits of HEAD and returns the
// smallest, or "" when git is missing or fails, or takes longer than
// wait (timedOut).
func rootCommit(top string, wait time.Duration) (root string, timedOut bool) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", top, "rev-list", "--max-parents=0", "HEAD")
	cmd.WaitDelay = 100 * time.Millisecond // a child of git holding the pipe does not hold us
	// Inside a git hook, GIT_DIR and friends name the repository the hook
	// runs for, which need not be top.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	out, err := cmd.Output()
	if err != nil {
		return "", ctx.Err() != nil
	}
	roots := slices.DeleteFunc(strings.Fields(string(out)), func(s string) bool { return !isHex(s) })
	if len(roots) == 0 {
		return "", false
	}
	return slices.Min(roots), false
}

// originURL returns the normalised URL of the origin remote in the
// repository's config, or "".
func originURL(common string) string {
	data, err := fsutil.ReadConfig(filepath.Join(common, "config"), gitFileLimit)
	if err != nil {
		return ""
	}
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			in = strings.EqualFold(strings.Join(strings.Fields(line), " "), `[remote "origin"]`)
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "url") {
			return NormalizeURL(strings.Trim(strings.TrimSpace(v), `"`))
		}
	}
	return ""
}

// NormalizeURL reduces a git remote URL to host/path, so that the forms
// one repository is cloned by agree: https://github.com/a/b.git,
// ssh://git@github.com:22/a/b and git@github.com:a/b all give
// github.com/a/b. The host is lower-cased; a local path stays a path.
func NormalizeURL(raw string) string {
	s := strings.TrimSpace(raw)
	if s == "" {
		return ""
	}
	host, p := "", s
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		host, p = u.Hostname(), u.Path
	} else if i := strings.Index(s, ":"); i > 0 && !strings.Contains(s[:i], "/") && !strings.Contains(s, "://") {
		// scp-like: [user@]host:path
		host, p = s[:i], s[i+1:]
		if j := strings.LastIndex(host, "@"); j >= 0 {
			host = host[j+1:]
		}
	} else if u, err := url.Parse(s); err == nil && u.Scheme == "file" {
		p = u.Path
	}
	p = strings.TrimSuffix(strings.TrimRight(p, "/"), ".git")
	p = strings.TrimRight(p, "/")
	if host == "" {
		return filepath.Clean(p)
	}
	return strings.ToLower(host) + "/" + strings.TrimLeft(p, "/")
}
