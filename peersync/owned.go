package peersync

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// Who owns a file decides which copy of it stands, never two hosts'
// clocks:
//
//   - an agent's rewritten files (status, now.md, its logs and hook state)
//     belong to its home host (fleet.Owners), a host record to its host;
//   - a host sends only what it owns (ownedOnly), and its copy
//     replaces whatever the receiver holds;
//   - a pull never takes the files this host owns (homeExcludes), and of
//     the rest takes an owner's files only when the peer's record of the
//     owner is newer than this host's (records.go): the hub relays each
//     owner's copy as it got it with the owner's record, and in a mesh a
//     peer's stale copy of a third host's files, or a rewrite made there
//     by someone else, never replaces the one this host got from the
//     owner itself. A host's records are compared with each other only
//     (its At, on its own clock, never goes back), never with another
//     host's.

// replacedDir is where a pull puts the files it replaces (rsync
// --backup-dir, relative to the root), for settle. It starts with a dot,
// so no listing takes it for an agent, and no transfer carries it.
const replacedDir = ".st-replaced"

// settle decides, for every file the last pull replaced, which copy
// stands: an owned file stays the peer's, as the pull took it from an
// owner's newer copy (a file of this host's own agents is never taken,
// and goes back if an older pull took it); any other file (one no host
// owns) keeps the newer modification time, as before owners. The copies
// put aside are then removed. A crash between the pull and settle leaves
// them for the next pull's settle.
func (s *Syncer) settle() {
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return
	}
	defer t.Close()
	if !t.IsDir(replacedDir) {
		return
	}
	defer func() { _ = t.RemoveAll(replacedDir) }() // best effort: the next settle looks again
	owners := fleet.Owners(fleet.Records(t))
	for _, rel := range listFiles(t, replacedDir) {
		keepMine := newerHere(t, rel)
		if agent, inAgent, ok := strings.Cut(rel, "/"); ok && isRewritten(inAgent) {
			if home, owned := owners[agent]; owned {
				keepMine = home == s.Host
			}
		}
		if keepMine {
			s.putBack(t, rel)
		}
	}
}

// newerHere reports whether the copy of rel put aside has a later
// modification time than the one that replaced it.
func newerHere(t *fsutil.Tree, rel string) bool {
	mine, err := t.Lstat(replacedDir + "/" + rel)
	if err != nil {
		return false
	}
	theirs, err := t.Lstat(rel)
	return err != nil || mine.ModTime().After(theirs.ModTime())
}

// putBack moves the copy of rel the pull put aside back in its place.
func (s *Syncer) putBack(t *fsutil.Tree, rel string) {
	if err := t.Replace(replacedDir+"/"+rel, rel); err != nil {
		fmt.Fprintf(s.Log, "# pull: could not put back %s: %v\n", rel, err)
	}
}

// listFiles lists the regular files under folder dir, relative to it,
// sorted.
func listFiles(t *fsutil.Tree, dir string) []string {
	var out []string
	var walk func(rel string)
	walk = func(rel string) {
		ents, err := t.ReadDir(path.Join(dir, rel))
		if err != nil {
			return
		}
		for _, e := range ents {
			switch p := path.Join(rel, e.Name()); {
			case e.IsDir():
				walk(p)
			case e.Type().IsRegular():
				out = append(out, p)
			}
		}
	}
	walk(".")
	slices.Sort(out)
	return out
}

// pullAgents takes the peer's copy of the rewritten files of the agents
// this host just gave up to another home (Syncer.stamp's yielded): the
// pull that brought the other home's claim left them out, as this host's
// own. Their new home's copy reached the peer with its claim, so this
// host shows the new home's state from this sync on. Best effort.
func (s *Syncer) pullAgents(target string, ids []string) {
	if len(ids) == 0 {
		return
	}
	args := slices.Clone(ownedStateArgs)
	for _, id := range ids {
		args = append(args, "--include=/"+id+"/", "--include=/"+id+"/context/",
			"--include=/"+id+"/events/", "--include=/"+id+"/traces/")
		args = append(args, agentRules("--include=", id)...)
	}
	args = append(args, "--exclude=*")
	fmt.Fprintf(s.Log, "# pull: %s now live%s on another host: taking their state from %s\n",
		strings.Join(ids, ", "), plural(len(ids), "s", ""), target)
	if code, stderr := s.rsync(target, s.Root+"/", rsyncState{args: args}); code != 0 {
		fmt.Fprintf(s.Log, "# pull: could not (rsync exit %d): %s\n", code, strings.TrimSpace(stderr))
	}
}
