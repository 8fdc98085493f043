package inbox

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// Sweep enforces the tombstone invariant over the whole tree: for every
// entry directly under the root with a readable archive/, an inbox file
// whose archive twin is byte-identical is removed. The twins considered
// are canonical messages and the attachments of a canonical message that
// is itself in that archive, so files a person dropped are never
// touched, and a pair that differs is left alone (it needs a human).
//
// Sync tools without deletes (rsync -a) bring archived messages back
// into inbox/; Sweep is what makes them go away again. It is best
// effort and idempotent: errors skip the file, and it returns the number
// of files removed. A nil tree (no root yet) sweeps nothing.
func Sweep(t *fsutil.Tree) (removed int) {
	if t == nil {
		return 0
	}
	ids, err := t.ReadDirNames(".")
	if err != nil {
		return 0
	}
	slices.Sort(ids)
	for _, id := range ids {
		removed += sweepAgent(t, id)
	}
	return removed
}

// sweepAgent sweeps one <id>/inbox against <id>/archive.
func sweepAgent(t *fsutil.Tree, id string) (removed int) {
	archived, err := t.ReadDirNames(id + "/" + Archive)
	if err != nil {
		return 0
	}
	inboxNames, err := t.ReadDirNames(id + "/" + Inbox)
	if err != nil || len(inboxNames) == 0 {
		return 0
	}
	inInbox := make(map[string]bool, len(inboxNames))
	for _, n := range inboxNames {
		inInbox[n] = true
	}
	canonical := make(map[string]bool)
	for _, n := range archived {
		if message.IsCanonical(n) {
			canonical[n] = true
		}
	}
	slices.Sort(archived)
	for _, n := range archived {
		if !inInbox[n] || !sweepable(n, canonical) {
			continue
		}
		in := id + "/" + Inbox + "/" + n
		if identical(t, id+"/"+Archive+"/"+n, in) && t.Remove(in) == nil {
			removed++
		}
	}
	return removed
}

// sweepable reports whether an archive entry may tombstone its inbox
// twin: a canonical message, or an attachment of an archived one.
func sweepable(name string, canonical map[string]bool) bool {
	if canonical[name] {
		return true
	}
	p, ok := message.Prefix(name)
	return ok && canonical[p+".md"]
}

// identical reports whether two regular files hold the same bytes.
func identical(t *fsutil.Tree, a, b string) bool {
	ia, errA := t.Lstat(a)
	ib, errB := t.Lstat(b)
	if errA != nil || errB != nil || !ia.Mode().IsRegular() || !ib.Mode().IsRegular() || ia.Size() != ib.Size() {
		return false
	}
	da, _, errA := t.ReadRegular(a)
	db, _, errB := t.ReadRegular(b)
	return errA == nil && errB == nil && bytes.Equal(da, db)
}

// RootShapeWarning returns the warning sync and gc print when the root
// does not look like a store, or "" when it does (or is missing or
// empty). A nested store within two levels below the root means the
// root is too shallow: syncing it would never converge the nested one.
// Otherwise a non-empty root without any <id>/inbox or <id>/archive is
// probably the wrong folder.
func RootShapeWarning(t *fsutil.Tree) string {
	if t == nil {
		return ""
	}
	root := t.Base()
	top, err := t.ReadDir(".")
	if err != nil || len(top) == 0 {
		return ""
	}
	// Breadth first: the folders one level below the root, then two.
	level := subdirs(t, ".", top)
	for depth := 1; depth <= 2; depth++ {
		var next []string
		for _, dir := range level {
			entries, err := t.ReadDir(dir)
			if err != nil {
				continue
			}
			children := subdirs(t, dir, entries)
			for _, c := range children {
				if agentShaped(t, c) {
					return "WARN: st root " + root + " looks too shallow — a nested bus tree exists at " +
						filepath.Join(root, dir) + ". A sweep/sync rooted at " + root +
						" will NOT converge it. Did you mean ST_ROOT=" + filepath.Join(root, dir) + "?"
				}
			}
			next = append(next, children...)
		}
		level = next
	}
	for _, c := range subdirs(t, ".", top) {
		if agentShaped(t, c) {
			return ""
		}
	}
	return "WARN: st root " + root + " has no agent-shaped children (no <id>/inbox or <id>/archive). Is ST_ROOT pointed at the right place?"
}

// subdirs returns the paths of the folders among entries of dir, sorted.
// Symlinks count when they lead to a folder inside the tree.
func subdirs(t *fsutil.Tree, dir string, entries []fs.DirEntry) []string {
	var out []string
	for _, e := range entries {
		rel := e.Name()
		if dir != "." {
			rel = dir + "/" + rel
		}
		switch {
		case e.IsDir():
		case e.Type()&fs.ModeSymlink != 0 && t.IsDir(rel):
		default:
			continue
		}
		out = append(out, rel)
	}
	slices.Sort(out)
	return out
}

// agentShaped reports whether dir holds inbox/ or archive/.
func agentShaped(t *fsutil.Tree, dir string) bool {
	return t.IsDir(dir+"/"+Inbox) || t.IsDir(dir+"/"+Archive)
}
