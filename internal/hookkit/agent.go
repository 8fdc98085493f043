package hookkit

import (
	"github.com/smalltalk-go/st/internal/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// waitingTail bounds how much of the latest log WaitingFor reads.
const waitingTail = 16 << 10

// WaitingFor reports whether agent waits on a human, judged from its
// most recently written session log (for overview and agents --enrich).
func WaitingFor(t *fsutil.Tree, agent string) (Waiting, bool) {
	if t == nil {
		return Waiting{}, false
	}
	rel, _, ok := events.Latest(t, agent)
	if !ok {
		return Waiting{}, false
	}
	evs, err := events.TailFile(t, rel, waitingTail)
	if err != nil {
		return Waiting{}, false
	}
	return WaitingOn(evs)
}
