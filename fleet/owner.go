package fleet

import "github.com/smalltalk-go/st/internal/fsutil"

// ForOwner returns the tree through which writer, on host local,
// rewrites agent id's status or now.md, and id's home when that is
// another host. Each such file has one writer, the agent's home: a
// rewrite made elsewhere by anyone but id itself goes through
// t.Behind(), stamped behind the copy it replaces, so no sync puts it
// over the home's copy and the home's copy replaces it at the next sync.
// id's own write is never held back (that is how an agent moves to a
// host), nor is any write in a store no host syncs. Callers tell the
// writer when home is not "".
func ForOwner(t *fsutil.Tree, id, writer, local string) (w *fsutil.Tree, home string) {
	if writer == id {
		return t, ""
	}
	home = Owners(Records(t))[id]
	if home == "" || home == local {
		return t, ""
	}
	return t.Behind(), home
}

// OwnerNote is what a writer is told when ForOwner held its rewrite of
// id's state back because id lives on home.
func OwnerNote(id, home string) string {
	return "note: " + id + " lives on " + home + ", which alone writes its status and now.md: this change stays here until the next sync brings " + id + "'s own back"
}
