package peersync

import (
	"io/fs"
	"path"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// StaleTempAge is how long an rsync temp file must have gone unchanged
// before RemoveStaleTemps takes it for the leftover of a killed transfer.
// rsync writes its temp file as data arrives and renames it when done, so
// a live transfer, even a slow one into this root from a peer's push,
// touches its temp file far more often than this.
const StaleTempAge = time.Hour

// RemoveStaleTemps removes, anywhere under the root, the temp files that
// killed rsync runs left behind (rsync writes "." + name + "." + six
// random letters or digits next to the target and renames it at the
// end), once unchanged for StaleTempAge by the inode's change time (which
// any write or attribute change, the final timestamps included, moves).
// No reader ever takes such a dot-file for data; this only reclaims the
// space. Best effort: it returns how many it removed.
func RemoveStaleTemps(t *fsutil.Tree, now time.Time) (removed int) {
	if t == nil {
		return 0
	}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := t.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			rel := path.Join(dir, e.Name())
			switch {
			case e.IsDir():
				walk(rel)
			case e.Type().IsRegular() && isRsyncTemp(e.Name()):
				fi, err := e.Info()
				if err != nil || !fi.Mode().IsRegular() || now.Sub(changeTime(fi)) < StaleTempAge {
					continue
				}
				if t.Remove(rel) == nil {
					removed++
				}
			}
		}
	}
	walk(".")
	return removed
}

// isRsyncTemp reports whether name has the shape of rsync's temp names:
// a dot, at least one character, a dot, six random letters or digits
// (mkstemp's). Six lower-case letters alone are left alone: that is how a
// person's ".notes.backup" looks, and only one random suffix in about 200
// has no capital or digit. (st's own temp files end in ".tmp" or, from
// renameio, in digits after the name; one of those an hour old is a dead
// writer's, which fsutil removes too.)
func isRsyncTemp(name string) bool {
	n := len(name)
	if n < 9 || name[0] != '.' || name[n-7] != '.' {
		return false
	}
	random := false
	for _, c := range []byte(name[n-6:]) {
		switch {
		case 'a' <= c && c <= 'z':
		case 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
			random = true
		default:
			return false
		}
	}
	return random
}

// changeTime is when the file last changed, data or metadata; where the
// platform does not say, its modification time.
func changeTime(fi fs.FileInfo) time.Time {
	if c, ok := ctime(fi); ok {
		return c
	}
	return fi.ModTime()
}
