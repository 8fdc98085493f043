package hooks

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// The brief names the messages that wait for the agent's acknowledgement,
// in its inbox and its archive. A long-lived agent's archive holds
// thousands of messages, and reading each at every session start cost
// 13 ms of a session start's 24 ms with 2,000 archived (scripts/bench's
// store, `scripts/benchtimer -n 40`), growing with the archive. So the
// archived messages found to ask for none are remembered, one name per
// line, in a file of the local state dir (not the store: nothing there
// needs to travel to other hosts), per store root and agent:
//
//	$XDG_STATE_HOME/st-acks/<root key>/<agent>
//
// <root key> is the Codex cursors' (rootKey). It is a hint, written
// without fsyncs: lost, the next session start reads the archive again.
const quietAcksDir = "st-acks"

// maxQuietAcks bounds the file read: 16 MiB is about 700,000 names. A
// bigger one is not ours, and is read as no file.
const maxQuietAcks = 16 << 20

// briefUnacked is inbox.Unacked for the brief, reading only the archived
// messages it has not read before.
func briefUnacked(t *fsutil.Tree, opt Options) []string {
	if opt.StateDir == "" {
		return inbox.Unacked(t, opt.Agent)
	}
	state, err := fsutil.OpenOrCreate(filepath.Join(opt.StateDir, quietAcksDir))
	if err != nil {
		return inbox.Unacked(t, opt.Agent)
	}
	defer state.Close()
	key, _ := rootKey(opt.Root)
	rel := key + "/" + opt.Agent
	known := readQuietAcks(state, rel)
	unacked, quiet := inbox.UnackedKnowing(t, opt.Agent, known)
	if !slices.Equal(quiet, known) {
		if state.MkdirAll(key) == nil {
			_ = state.WriteHint(rel, []byte(strings.Join(quiet, "\n")+"\n")) // best effort: without it the next start reads the archive
		}
	}
	return unacked
}

// readQuietAcks reads the remembered names, sorted; anything but a
// canonical message name on a line is skipped.
func readQuietAcks(state *fsutil.Tree, rel string) []string {
	data, fi, err := state.ReadRange(rel, 0, maxQuietAcks+1)
	if err != nil || fi.Size() > maxQuietAcks {
		return nil
	}
	names := slices.DeleteFunc(strings.Split(string(data), "\n"), func(n string) bool { return !message.IsCanonical(n) })
	slices.Sort(names) // written sorted: a check that costs nothing then
	return names
}
