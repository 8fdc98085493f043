package main

import (
	"fmt"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// forOwner returns the tree to rewrite agent id's status or now.md
// through (fleet.ForOwner), telling the user on stderr when the rewrite
// is held back because id lives on another host.
func (a *app) forOwner(t *fsutil.Tree, id string) *fsutil.Tree {
	w, home := fleet.ForOwner(t, id, a.envAgent(), fleet.Local(a.env.Get("ST_HOST")))
	if home != "" {
		fmt.Fprintf(a.stderr, "%s: %s\n", a.name, fleet.OwnerNote(id, home))
	}
	return w
}
