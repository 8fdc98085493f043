package fleet

import (
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

// HomeElsewhere returns the host that alone rewrites agent id's status
// and now.md when writer, on host local, may not: id lives on another
// host and writer is not id itself. "" means the write may go ahead: id's
// own write is never refused (that is how an agent moves to a host), nor
// is any write in a store no host syncs or for an agent no host claims.
// st sync carries those files from their home host only, so a rewrite
// made elsewhere would never reach anyone and would be replaced at the
// next sync: callers refuse it (NotHome).
func HomeElsewhere(t *fsutil.Tree, id, writer, local string) string {
	if writer == id {
		return ""
	}
	home := Owners(Records(t))[id]
	if home == local {
		return ""
	}
	return home
}

// NotHome is the error for a rewrite of id's status or now.md that
// HomeElsewhere refuses because id lives on home.
func NotHome(id, home, what string) *sterr.Error {
	return sterr.New(sterr.NotHome,
		id+" lives on "+home+", which alone writes its "+what+": run this on "+home+" (st sync carries it here)",
		map[string]any{"identity": id, "home": home})
}
