package main

import (
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// notHome refuses a rewrite of agent id's what (its status, its now.md)
// on a host that is not id's home, unless $ST_AGENT is id itself (that is
// how an agent moves here): st sync carries those files from the home
// only, so the change would never stand (fleet.HomeElsewhere).
func (a *app) notHome(t *fsutil.Tree, id, what string) error {
	if home := fleet.HomeElsewhere(t, id, a.envAgent(), fleet.Local(a.env.Get("ST_HOST"))); home != "" {
		return fleet.NotHome(id, home, what)
	}
	return nil
}
