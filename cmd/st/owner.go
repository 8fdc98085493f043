package main

import (
	"fmt"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// forOwner returns the tree to rewrite agent id's status or now.md
// through. Each such file has one writer, the agent's home host: when
// the store's sync records say id lives on another host and the writer
// is not id itself, the rewrite is stamped behind the copy it replaces
// (fsutil.Tree.Behind), so no sync carries it to id's home, and the
// home's copy replaces it at the next sync; st says so on stderr. An
// agent writing its own state is never held back (that is how an agent
// moves to this host), nor is anyone in a store no host syncs.
func (a *app) forOwner(t *fsutil.Tree, id string) *fsutil.Tree {
	if a.envAgent() == id {
		return t
	}
	home := fleet.Owners(fleet.Records(t))[id]
	if home == "" || home == fleet.Local(a.env.Get("ST_HOST")) {
		return t
	}
	fmt.Fprintf(a.stderr, "%s: note: %s lives on %s, which alone writes its status and now.md: this change stays here until the next sync brings %s's own back\n", a.name, id, home, id)
	return t.Behind()
}
