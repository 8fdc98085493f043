package front

import (
	"slices"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// removeUnused removes the folders of a throwaway agent that nobody used:
// its folder may hold only its empty inbox and archive and its status,
// else it stays. It reports whether the agent is gone. Folders go one by
// one, each only when empty, so a message delivered meanwhile keeps its
// inbox and the agent (a delivery finding the inbox gone creates it
// again).
func removeUnused(t *fsutil.Tree, id string) bool {
	names, err := t.ReadDirNames(id)
	if err != nil {
		return false
	}
	for _, n := range names {
		if !slices.Contains([]string{"inbox", "archive", "status"}, n) {
			return false
		}
	}
	if t.Remove(id+"/inbox") != nil {
		return false
	}
	if t.Remove(id+"/archive") != nil {
		_ = t.MkdirAll(id + "/inbox") // best effort: put back what the failed removal took
		return false
	}
	_ = t.Remove(id + "/status") // if it stays, removing the folder below fails and says so
	return t.Remove(id) == nil
}
