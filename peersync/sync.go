// Package peersync is `st sync`: it converges a store root with its
// peers through rsync. (Named peersync so it does not shadow the
// standard library's sync.)
//
// The model is union-only: "rsync -a" copies files that are missing or
// changed and never deletes (no --delete), so a message sent on either
// side reaches the other. Because nothing is deleted, a message archived
// on one side comes back into its inbox/ from a peer that still has it
// there; the archive copy is a tombstone, and inbox.Sweep, run before
// and after every transfer, removes such byte-identical inbox twins.
//
// Files an agent rewrites (status, context/now.md, its event logs...)
// have one writer, the agent's home host, and each host's record has its
// host: who owns a file decides which copy stands, never modification
// times (owned.go). A host sends only the rewritten files it owns, a
// pull never takes a peer's copy of them, and a relayed copy is kept
// only when the owner's record that came with it is newer than the one
// here, so a home host is never reverted, whoever pushes last, and no
// two hosts' clocks are compared.
//
// The package prints nothing itself except the progress lines st has
// always written to stderr (Log); rsync's stdout goes to Stdout.
package peersync

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/sterr"
)

// Syncer pushes and pulls one store root.
type Syncer struct {
	Root      string    // the store root, used verbatim in messages
	ConfigDir string    // where peers.yaml lives
	PathEnv   string    // $PATH, searched for rsync
	Stdout    io.Writer // rsync's own stdout
	Log       io.Writer // progress lines and rsync's stderr on failure
	// Host is this machine's fleet.HostName: each sync leaves its record
	// (package fleet) in the root. Empty: no record.
	Host string
	Now  func() time.Time // the clock for records; nil means time.Now
	// StateDir is this machine's state folder ($XDG_STATE_HOME, else
	// ~/.local/state), where the agents' own writes leave their home
	// marks (fleet.MarkHome). Empty: this host claims no agent.
	StateDir string
	// Peer is the peers.yaml name of the peer a transfer goes to, so the
	// record says which peer fails; "" when unknown.
	Peer string

	// Transport bounds every rsync (transport.go).
	Transport
}

// rsyncExcludes keeps files that are mid-write out of a transfer. They
// are all dot-files, which st never reads as messages, but shipping one
// would leave junk on the peer that nothing there ever removes:
//
//   - ".st-*.tmp": fsutil.Deliver's temp file, written before the link
//     that publishes a message;
//   - ".*[0-9]": renameio's temp file for an atomic rewrite (status,
//     now.md): "." + the target's name + random decimal digits;
//   - ".*.??????": rsync's own temp file ("." + name + "." + 6 random
//     characters) when another rsync is writing into this root now;
//   - "/.st-locks/": the lock files of a store on a shared filesystem
//     (fsutil.SharedLockDir), which mean nothing on another one;
//   - "/.st-replaced/": the copies a pull put aside (owned.go);
//   - "/.st-incoming/": the records a pull fetched before its files
//     (records.go).
//
// Other dot-files (context/.flush-errors.log) still travel.
var rsyncExcludes = []string{
	"--exclude=.st-*.tmp",
	"--exclude=.*[0-9]",
	"--exclude=.*.??????",
	"--exclude=/" + fsutil.SharedLockDir + "/",
	"--exclude=/" + replacedDir + "/",
	"--exclude=/" + incomingDir + "/",
}

// rsyncSafety keeps what a peer ships from making the local store unsafe
// (st's store holds only folders and regular files):
//
//   - --no-links: no symbolic links at all, not only those --safe-links
//     calls unsafe: its check reads the link text, so "d/y -> .." plus
//     "d/x -> y/../.." passes it and still resolves out of the root;
//   - --no-devices --no-specials: no device nodes (rsync running as root
//     would create them), FIFOs or sockets, which block or mislead readers;
//   - --max-size: no file over MaxFileBytes, so a peer cannot fill the
//     disk with one huge (or sparse) file.
//
// rsync says "skipping non-regular file" for each one it leaves out.
func rsyncSafety() []string {
	return []string{
		"--no-links",
		"--no-devices",
		"--no-specials",
		"--max-size=" + strconv.FormatInt(MaxFileBytes, 10),
	}
}

// MaxFileBytes is the largest file st sync copies in either direction.
const MaxFileBytes = 256 << 20

// Sweep removes the redundant inbox twins under the root (inbox.Sweep).
func (s *Syncer) Sweep() int {
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return 0
	}
	defer t.Close()
	return inbox.Sweep(t)
}

// RemoveStaleTemps removes what killed rsync runs left under the root
// (RemoveStaleTemps, on the Syncer's clock).
func (s *Syncer) RemoveStaleTemps() int {
	t, err := fsutil.Open(s.Root)
	if err != nil {
		return 0
	}
	defer t.Close()
	return RemoveStaleTemps(t, s.now())
}

// Push sends the root to the peer: it reads the peer's host records
// first (learnClaims), so that an agent another host has claimed since
// this host's last pull is given up before its files could go, then
// sweep, rsync, sweep.
func (s *Syncer) Push(spec string) error {
	theirs, err := s.push(spec)
	theirs.remove()
	return err
}

// push is Push, returning the peer's records it read first (nil when it
// read none) for a pull that follows it; the caller removes them.
func (s *Syncer) push(spec string) (*pulledRecords, error) {
	if _, err := os.Stat(s.Root); err != nil {
		return nil, sterr.New(sterr.PeersConfigInvalid, "no ST_ROOT to push from: "+s.Root,
			map[string]any{"path": s.Root, "reason": "no ST_ROOT to push from"})
	}
	target, err := s.resolve(spec)
	if err != nil {
		return nil, err
	}
	from := s.Root + "/"
	theirs, err := s.learnClaims(from, target)
	var learned map[string]fleet.Record
	if theirs != nil {
		learned = theirs.recs
	}
	s.stamp("push", starting, learned)
	if err != nil {
		s.stamp("push", failed, nil)
		return theirs, err
	}
	_, err = s.transfer("push", from, target, s.pushState(true))
	if !isLocal(spec) && err != nil && mkpathUnknown(err) {
		// An rsync older than 3.2.3 (here or on the peer) lacks --mkpath.
		fmt.Fprintln(s.Log, "# push: rsync has no --mkpath; trying without it (the peer's store folder must exist)")
		_, err = s.transfer("push", from, target, s.pushState(false))
	}
	if err == nil {
		err = s.pushRecord(from, target)
	}
	s.stamp("push", outcomeOf(err), nil)
	return theirs, err
}

// pushRecord sends this host's own record, after the files it speaks for
// (records.go). Without a Host there is none.
func (s *Syncer) pushRecord(from, target string) error {
	if s.Host == "" {
		return nil
	}
	if code, stderr := s.rsync(from, target, s.recordState()); code != 0 {
		return s.failure("push", from, target, code, stderr)
	}
	return nil
}

// Pull fetches the peer into the root (created if missing): the peer's
// host records first (pulledRecords), which decide whose rewritten
// files the pull takes, then sweep, rsync, those records, settle
// (owned.go), sweep; then, for the agents another host's claim just took
// from this one, their new home's state.
func (s *Syncer) Pull(spec string) error { return s.pull(spec, nil) }

// pull is Pull deciding with theirs, the peer's records a push read just
// before (nil: it reads them itself). It removes them.
func (s *Syncer) pull(spec string, theirs *pulledRecords) error {
	defer func() { theirs.remove() }()
	target, err := s.resolve(spec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Root, 0o777); err != nil {
		return err
	}
	s.settle() // what a pull cut short left aside
	pruned, _ := s.stamp("pull", starting, nil)
	if theirs == nil {
		theirs, err = s.readPeerRecords("pull", target, s.Root+"/", target)
	}
	var twins []string
	if err == nil {
		newer, owners := s.newerRecords(theirs)
		twins, err = s.transfer("pull", target, s.Root+"/", s.pullState(newer, owners))
		if err == nil {
			s.takeRecords(theirs, newer)
		}
		s.settle()
	}
	after, yielded := s.stamp("pull", outcomeOf(err), nil)
	pruned = append(pruned, after...)
	if err == nil {
		s.pullAgents(target, yielded)
		s.removeOnPeer(target, twins, pruned)
	}
	return err
}

func (s *Syncer) resolve(spec string) (string, error) {
	return ResolvePeer(spec, s.ConfigDir, func(p string) error { return os.MkdirAll(p, 0o777) })
}

// transfer runs one rsync between from and to with sweeps around it.
// The sweep after runs even when rsync failed: a partial transfer can
// have brought back archived messages too. The one before also removes
// the temp files of earlier transfers killed long ago. For a pull it
// returns the inbox twins the sweep after removed (root-relative), so
// they can be removed on the peer too.
func (s *Syncer) transfer(stage, from, to string, state rsyncState) (twins []string, err error) {
	s.Sweep()
	s.RemoveStaleTemps()
	defer func() {
		var maybe []string
		if stage == "pull" {
			maybe = s.twinCandidates()
		}
		s.Sweep()
		twins = s.gone(maybe)
	}()
	fmt.Fprintf(s.Log, "# %s: %s -> %s\n", stage, from, to)
	var skipped []string
	state.skipped = &skipped
	code, stderr := s.rsync(from, to, state)
	for _, f := range skipped {
		fmt.Fprintf(s.Log, "# %s: skipped %s: larger than %d MiB\n", stage, f, MaxFileBytes>>20)
	}
	if code == 0 {
		return nil, nil
	}
	return nil, s.failure(stage, from, to, code, stderr)
}

// failure logs a failed rsync's stderr and returns the error that says
// which transfer failed.
func (s *Syncer) failure(stage, from, to string, code int, stderr string) error {
	if stderr != "" {
		fmt.Fprintln(s.Log, jsstr.TrimRightSpace(stderr))
	}
	return sterr.New(sterr.SyncFailed, fmt.Sprintf("rsync %s failed: %s -> %s", stage, from, to),
		map[string]any{"stage": stage, "exitCode": code, "stderr": stderr})
}

// rsync runs "rsync -a <safety> <excludes> <state> from to" with stdout passed through
// and stderr captured. The exit code is -1 when rsync died from a signal
// and 127 when it could not be started.
func (s *Syncer) rsync(from, to string, state rsyncState) (code int, stderr string) {
	bin, err := lookPath("rsync", s.PathEnv)
	if err != nil {
		return 127, "rsync is not installed (not found in PATH); st sync needs it: install rsync (e.g. apt-get install rsync)\n"
	}
	args := append(append(append([]string{"-a"}, rsyncSafety()...), rsyncExcludes...), s.transportArgs()...)
	args = append(args, state.args...)
	args = append(args, "--", from, to)
	if nice, err := lookPath("nice", s.PathEnv); s.Yield && err == nil {
		// The peer's rsync too (rsync runs this in place of "rsync"
		// over the remote shell; a local transfer ignores it).
		args = append([]string{"-n", yieldNice, bin, "--rsync-path=nice -n " + yieldNice + " rsync"}, args...)
		bin = nice
	}
	cmd := s.command(bin, args)
	var errBuf bytes.Buffer
	out := &skipScanner{w: s.Stdout, skipped: state.skipped}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = state.stdin, out, &errBuf
	err = cmd.run(&errBuf)
	out.flush()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, errBuf.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), errBuf.String()
	default:
		return 127, errBuf.String() + err.Error() + "\n"
	}
}

// yieldNice is the niceness of a transfer that yields (Transport.Yield).
const yieldNice = "10"

// lookPath finds an executable regular file named name in pathEnv.
func lookPath(name, pathEnv string) (string, error) {
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fs.ErrNotExist
}
