package peersync

import (
	"bytes"
	"fmt"
)

// copyMessages copies messages by name (root-relative
// "<agent>/inbox/<name>") to the peer (stage "push") or from it
// ("pull"): serve's way to move one message at once, at the cost of one
// small rsync, where a whole push or pull lists both stores and
// exchanges the host records. A message is written once under a fresh
// name and never rewritten, so no owner, record or sweep is involved:
// a copy already there is left alone (--ignore-existing), and one gone
// meanwhile (archived, swept) is skipped (--ignore-missing-args); the
// rounds carry everything else. It reports whether it failed.
func (s *Syncer) copyMessages(stage string, p Peer, rels []string) (failed bool) {
	target, err := s.resolve(p.Spec)
	if err != nil {
		fmt.Fprintf(s.Log, "# peer %s: %v\n", p.Name, err)
		return true
	}
	from, to := s.Root+"/", target
	if stage == "pull" {
		from, to = target, s.Root+"/"
	}
	var list bytes.Buffer
	for _, rel := range rels {
		fmt.Fprintf(&list, "%s\x00", rel)
	}
	fmt.Fprintf(s.Log, "# %s: %d %s: %s -> %s\n", stage, len(rels), plural(len(rels), "message", "messages"), from, to)
	state := rsyncState{args: []string{"--ignore-existing", "--ignore-missing-args", "--files-from=-", "--from0"}, stdin: &list}
	if code, stderr := s.rsync(from, to, state); code != 0 {
		_ = s.failure(stage, from, to, code, stderr) // logs rsync's stderr; the line below says which peer
		fmt.Fprintf(s.Log, "# peer %s: %s of %d %s failed; the next round carries them\n", p.Name, stage, len(rels), plural(len(rels), "message", "messages"))
		return true
	}
	return false
}
