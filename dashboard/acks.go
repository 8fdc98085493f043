package dashboard

import (
	"slices"
	"strings"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// pendingAcks is inbox.Unacked for the fleet's rescans, which run on
// every change to an agent's folders: a delivered message never
// changes, so whether it asks for an acknowledgement is read once per
// message and remembered in asks (which forgets messages that are gone).
// Acknowledgements are permanent too, so an acknowledged message is
// never read at all.
func pendingAcks(t *fsutil.Tree, id string, asks map[string]bool) []string {
	acked := map[string]bool{}
	if names, err := t.ReadDirNames(id + "/" + inbox.Acks); err == nil {
		for _, n := range names {
			acked[n] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, folder := range []string{inbox.Inbox, inbox.Archive} {
		dir := id + "/" + folder
		names, err := t.ReadDirNames(dir)
		if err != nil {
			continue
		}
		for _, n := range names {
			if !message.IsCanonical(n) || seen[n] || acked[n] {
				continue
			}
			seen[n] = true
			ask, known := asks[n]
			if !known {
				fields, ok := inbox.ReadFields(t, dir+"/"+n) // a bounded prefix
				if !ok {
					continue // moved meanwhile, say: the next rescan reads it
				}
				ask = strings.TrimSpace(fields[message.AckField]) == message.AckRequired
				asks[n] = ask
			}
			if ask {
				out = append(out, n)
			}
		}
	}
	for n := range asks {
		if !seen[n] {
			delete(asks, n)
		}
	}
	slices.Sort(out)
	return out
}
