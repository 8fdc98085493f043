package peersync

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

// rsyncState is what the state model adds to one rsync run: its own
// arguments, the standard input (a --files-from list) and where to note
// the files skipped for size.
type rsyncState struct {
	args    []string
	stdin   io.Reader
	skipped *[]string
}

// commonStateArgs go with every transfer of a store no host syncs by
// name (no Host: no records, no owners), and with the removals by name:
//
//   - --update: a receiver never replaces a file that is newer there,
//     the best a store without owners can do;
//   - --info=skip1: rsync names each file it skips for size (and each it
//     skips as newer, which skipScanner drops).
var commonStateArgs = []string{"--update", "--info=skip1"}

// ownedStateArgs go with every push and pull of a host. Who owns a file
// decides what travels, not its modification time (owned.go), so there
// is no --update: a file travels when it differs. --modify-window=-1
// makes rsync's quick check compare modification times to the
// nanosecond, so two rewrites of one size within a second differ.
var ownedStateArgs = []string{"--info=skip1", "--modify-window=-1"}

// pushState is a push's. A host sends only the rewritten files it owns
// (ownedOnly) and its copy of them wins on the peer. mkpath adds
// --mkpath, which also creates the store folder on a fresh peer (rsync
// 3.2.3 and later; Push retries without it).
func (s *Syncer) pushState(mkpath bool) rsyncState {
	args := slices.Clone(commonStateArgs)
	if s.Host != "" {
		args = append(slices.Clone(ownedStateArgs), s.ownedOnly()...)
	}
	if mkpath {
		args = append(args, "--mkpath")
	}
	return rsyncState{args: args}
}

// pullState is a pull's: the files this host alone writes never come
// from a peer (homeExcludes), an owner's rewritten files come only when
// the peer's record of the owner is newer than this host's (newer, with
// owners by the records here and those newer ones), no current record
// comes with the files (takeRecords installs the newer ones after them),
// and every file the pull replaces is put aside in replacedDir for
// settle.
func (s *Syncer) pullState(newer map[string]bool, owners map[string]string) rsyncState {
	if s.Host == "" {
		return rsyncState{args: slices.Clone(commonStateArgs)}
	}
	args := append(slices.Clone(ownedStateArgs), "--backup", "--backup-dir="+replacedDir)
	args = append(args, s.homeExcludes()...)
	for _, id := range sortedKeys(owners) {
		if home := owners[id]; home != s.Host && !newer[home] {
			args = append(args, agentRules("--exclude=", id)...)
		}
	}
	return rsyncState{args: append(args, "--exclude=/"+fleet.Dir+"/*.json")}
}

// rewritten are the files of an agent that its home host rewrites or
// appends to, relative to the agent's folder: only the home host sends
// them, and a pull never takes a peer's copy of them for an agent that
// lives here. (Its inbox, archive, decisions, acks, reservations,
// resources and sent-trace marks are written once under fresh names and
// travel both ways.)
var rewritten = []string{
	"status",
	"name",
	"context/now.md",
	"context/.*",
	"events/*.jsonl",
	"events/.*.json",
	"traces/*.json",
}

// isRewritten reports whether rel, relative to an agent's folder, is one
// of the rewritten files.
func isRewritten(rel string) bool {
	for _, p := range rewritten {
		if ok, _ := path.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// agentRules are the rsync filter rules (rule is "--exclude=" or
// "--include=") for the rewritten files of agent id. Agent names hold
// only [a-z0-9.-] and host names [A-Za-z0-9._-], none of them special in
// a pattern.
func agentRules(rule, id string) []string {
	var out []string
	for _, rel := range rewritten {
		out = append(out, rule+"/"+id+"/"+rel)
	}
	return out
}

// homeExcludes are the pull's --exclude rules for the agents whose home
// is this host and for this host's own record.
func (s *Syncer) homeExcludes() []string {
	owners := s.homes()
	var out []string
	for _, id := range sortedKeys(owners) {
		if owners[id] == s.Host {
			out = append(out, agentRules("--exclude=", id)...)
		}
	}
	if s.Host != "" {
		out = append(out, "--exclude=/"+fleet.RecordPath(s.Host))
	}
	return out
}

// ownedOnly are the push's filter rules: the rewritten files of the
// agents whose home is this host go; those of every other agent and
// every host record stay (pushRecord sends this host's own after the
// files). An agent no host claims (its host does not run st sync, or
// runs an older version) has no owner to send its files: pulls bring
// them (settle keeps the newer), and no push ever puts a copy over its
// own host's.
func (s *Syncer) ownedOnly() []string {
	owners := s.homes()
	var out []string
	for _, id := range sortedKeys(owners) {
		if owners[id] == s.Host {
			out = append(out, agentRules("--include=", id)...)
		}
	}
	out = append(out, agentRules("--exclude=", "*")...)
	return append(out, "--exclude=/"+fleet.Dir+"/*.json")
}

// recordState sends only this host's own record, the push's last step.
func (s *Syncer) recordState() rsyncState {
	args := append(slices.Clone(ownedStateArgs),
		"--include=/"+fleet.Dir+"/", "--include=/"+fleet.RecordPath(s.Host), "--exclude=*")
	return rsyncState{args: args}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// isLocal reports whether spec is a local: peer (no ssh, the local
// rsync creates the folder itself).
func isLocal(spec string) bool { return strings.HasPrefix(spec, "local:") }

// mkpathUnknown reports whether a failed push failed on --mkpath itself.
func mkpathUnknown(err error) bool {
	var e *sterr.Error
	if !errors.As(err, &e) {
		return false
	}
	stderr, _ := e.Details["stderr"].(string)
	return strings.Contains(stderr, "--mkpath")
}

// skipScanner passes rsync's stdout through, line by line, taking out
// what --info=skip1 adds: "<file> is over max-size" (noted in skipped)
// and "<file> is newer" (the --update skips, which are the normal case).
type skipScanner struct {
	w       io.Writer
	skipped *[]string
	buf     []byte
}

func (k *skipScanner) Write(p []byte) (int, error) {
	k.buf = append(k.buf, p...)
	for {
		i := bytes.IndexByte(k.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		k.line(k.buf[:i+1])
		k.buf = k.buf[i+1:]
	}
}

func (k *skipScanner) line(l []byte) {
	text := strings.TrimSuffix(string(l), "\n")
	if f, ok := strings.CutSuffix(text, " is over max-size"); ok {
		if k.skipped != nil {
			*k.skipped = append(*k.skipped, f)
		}
		return
	}
	if strings.HasSuffix(text, " is newer") {
		return
	}
	if k.w != nil {
		_, _ = k.w.Write(l) // rsync's output passed on to our log: nowhere better to report it
	}
}

func (k *skipScanner) flush() {
	if len(k.buf) > 0 && k.w != nil {
		_, _ = k.w.Write(k.buf) // as in line
	}
	k.buf = nil
}

// twinCandidates lists the root-relative inbox files that have an
// archive file of the same name: those the next sweep may remove.
func (s *Syncer) twinCandidates() []string {
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return nil
	}
	defer t.Close()
	ids, _ := t.ReadDirNames(".")
	var out []string
	for _, id := range ids {
		if strings.HasPrefix(id, ".") {
			continue
		}
		in, err := t.ReadDirNames(id + "/inbox")
		if err != nil || len(in) == 0 {
			continue
		}
		archived, _ := t.ReadDirNames(id + "/archive")
		isArchived := make(map[string]bool, len(archived))
		for _, n := range archived {
			isArchived[n] = true
		}
		for _, n := range in {
			if isArchived[n] {
				out = append(out, id+"/inbox/"+n)
			}
		}
	}
	return out
}

// gone keeps the paths of maybe that no longer exist under the root.
func (s *Syncer) gone(maybe []string) []string {
	var out []string
	for _, rel := range maybe {
		if _, err := os.Lstat(s.Root + "/" + rel); errors.Is(err, os.ErrNotExist) {
			out = append(out, rel)
		}
	}
	return out
}

// removeOnPeer removes on the peer, by name, what this host just found
// redundant after a pull: the inbox twins its sweep removed (each after
// its archive copy, which the same run sends first) and the host records
// its prune removed. Only the files named go (rsync --files-from with
// --delete-missing-args), never a whole folder, so nothing that reached
// the peer meanwhile can be lost; this is how a hub nobody logs in to
// stays small. It is best effort: a failure is logged, and the next
// pull finds the same files again.
func (s *Syncer) removeOnPeer(target string, twins, records []string) {
	if len(twins) == 0 && len(records) == 0 {
		return
	}
	var list bytes.Buffer
	for _, rel := range twins {
		agent, name, _ := strings.Cut(rel, "/inbox/")
		fmt.Fprintf(&list, "%s/archive/%s\x00%s\x00", agent, name, rel)
	}
	for _, rel := range records {
		fmt.Fprintf(&list, "%s\x00", rel)
	}
	fmt.Fprintf(s.Log, "# pull: removing %d redundant files on %s\n", len(twins)+len(records), target)
	state := rsyncState{args: append(slices.Clone(commonStateArgs), "--files-from=-", "--from0", "--delete-missing-args"), stdin: &list}
	if code, stderr := s.rsync(s.Root+"/", target, state); code != 0 && code != 24 {
		fmt.Fprintf(s.Log, "# pull: could not remove them (rsync exit %d): %s\n", code, strings.TrimSpace(stderr))
	}
}

// Forget drops host's record here and, when peers.yaml lists peers, on
// each of them: a tombstone (fleet.Forget) that travels with the store
// makes every host ignore and prune the records written before it. A
// host that syncs again afterwards is back.
func (s *Syncer) Forget(host string) error {
	if fleet.HostName(host) != host || host == "" {
		return sterr.Msg("not a host name: %s", host)
	}
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return err
	}
	if _, ok := fleet.Records(t)[host]; !ok {
		fmt.Fprintf(s.Log, "# forget: no record of %s here\n", host)
	}
	removed, err := fleet.Forget(t, host, s.now())
	t.Close()
	if err != nil {
		return err
	}
	noun := "records"
	if len(removed) == 1 {
		noun = "record"
	}
	fmt.Fprintf(s.Log, "# forget: %s (%d %s removed here)\n", host, len(removed), noun)
	peers, err := readPeers(s.ConfigDir)
	var missing *sterr.Error
	if errors.As(err, &missing) && missing.Code == sterr.PeersConfigMissing {
		return nil
	}
	if err != nil {
		return err
	}
	var failed []string
	for _, p := range peers {
		target, err := s.resolve(p.Spec)
		if err != nil {
			failed = append(failed, p.Spec)
			continue
		}
		var list bytes.Buffer
		for _, rel := range append([]string{fleet.ForgottenPath(host), fleet.RecordPath(host)}, removed...) {
			fmt.Fprintf(&list, "%s\x00", rel)
		}
		fmt.Fprintf(s.Log, "# forget: %s on %s\n", host, target)
		state := rsyncState{args: append(slices.Clone(commonStateArgs), "--files-from=-", "--from0", "--delete-missing-args"), stdin: &list}
		if code, stderr := s.rsync(s.Root+"/", target, state); code != 0 && code != 24 {
			fmt.Fprintln(s.Log, strings.TrimSpace(stderr))
			failed = append(failed, p.Spec)
		}
	}
	if len(failed) > 0 {
		return sterr.Msg("forget failed for %s", strings.Join(failed, ", "))
	}
	return nil
}
