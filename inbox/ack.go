package inbox

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// Acks is the folder of an agent's acknowledgements: one file per
// acknowledged message, named like it, holding when. The acknowledging
// agent writes it (in its own folder) and never rewrites it, so it
// travels with st sync like a message.
const Acks = "acks"

// Ack records that id acknowledged its message name (in its inbox or
// archive). Acknowledging again changes nothing; already says so.
func Ack(t *fsutil.Tree, id, name string, now time.Time) (already bool, err error) {
	if _, err := Locate(t, id, name, false); err != nil {
		return false, err
	}
	if Acked(t, id, name) {
		return true, nil
	}
	if err := t.MkdirAll(id + "/" + Acks); err != nil {
		return false, err
	}
	data := fmt.Appendf(nil, "acked: %s\n", now.UTC().Format(time.RFC3339Nano))
	_, err = t.Deliver(id+"/"+Acks, data, func() string { return name })
	if errors.Is(err, fsutil.ErrCollisions) {
		return true, nil // a racing ack won
	}
	return false, err
}

// Acked reports whether id acknowledged name.
func Acked(t *fsutil.Tree, id, name string) bool {
	_, err := t.Lstat(id + "/" + Acks + "/" + name)
	return err == nil
}

// NeedsAck reports whether id's message name in folder asks for an
// acknowledgement id has not given.
func NeedsAck(t *fsutil.Tree, id, folder, name string) bool {
	if !message.IsCanonical(name) || Acked(t, id, name) {
		return false
	}
	data, _, err := t.ReadRegular(id + "/" + folder + "/" + name)
	if err != nil {
		return false
	}
	fields, _, _ := message.Parse(Text(data))
	return strings.TrimSpace(fields[message.AckField]) == message.AckRequired
}

// Unacked returns the canonical messages in id's inbox and archive that
// ask for an acknowledgement id has not given, oldest first.
func Unacked(t *fsutil.Tree, id string) []string {
	out, _ := UnackedKnowing(t, id, nil)
	return out
}

// UnackedKnowing is Unacked for a caller that remembers which archived
// messages ask for no acknowledgement (quiet, sorted): those are not read
// again.
// A message never changes once delivered, and the archive only gains and
// loses names, so what one was found to ask stays true. It also returns
// the quiet names the archive holds now, sorted, for the caller to
// remember.
func UnackedKnowing(t *fsutil.Tree, id string, quiet []string) (unacked, archiveQuiet []string) {
	acked := map[string]bool{}
	if names, err := t.ReadDirNames(id + "/" + Acks); err == nil {
		for _, n := range names {
			acked[n] = true
		}
	}
	for _, folder := range []string{Inbox, Archive} {
		dir := id + "/" + folder
		names, err := regularNames(t, dir)
		if err != nil {
			continue
		}
		var cands []string
		for _, n := range names {
			switch {
			case !message.IsCanonical(n) || acked[n] || slices.Contains(unacked, n):
			case folder == Archive && isIn(quiet, n):
				archiveQuiet = append(archiveQuiet, n)
			default:
				cands = append(cands, n)
			}
		}
		need, read := make([]bool, len(cands)), make([]bool, len(cands))
		forCanonical(t, dir, cands, func(i int, text string) {
			fields, _, _ := message.Parse(text)
			need[i] = strings.TrimSpace(fields[message.AckField]) == message.AckRequired
			read[i] = text != "" // "": unreadable now, so nothing to remember
		})
		for i, n := range cands {
			switch {
			case need[i]:
				unacked = append(unacked, n)
			case folder == Archive && read[i]:
				archiveQuiet = append(archiveQuiet, n)
			}
		}
	}
	slices.Sort(unacked)
	slices.Sort(archiveQuiet)
	return slices.Compact(unacked), archiveQuiet
}

// isIn reports whether the sorted names hold name.
func isIn(sorted []string, name string) bool {
	_, found := slices.BinarySearch(sorted, name)
	return found
}
