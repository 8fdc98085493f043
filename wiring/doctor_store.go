package wiring

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/watch"
)

// The doctor fires each hook against a temporary root, which proves the
// hook runs but not that it can write where it will really write. A
// store that cannot be written (read-only mount, wrong owner after a
// sync, full disk, ST_ROOT or XDG_STATE_HOME a file) makes every hook
// drop what it records while still exiting 0, as hooks must. So the
// doctor also checks the real folders, and says what to do about each
// problem in one FAIL line.

// StoreCheck names the real folders the hooks write to.
type StoreCheck struct {
	Root     string // $ST_ROOT as resolved (default included)
	AgentVar string // the variable that named the agent (ST_AGENT, …), "" when none did
	Agent    string // its value, unvalidated
	StateDir string // $XDG_STATE_HOME, else ~/.local/state: the Codex cursors live there
	StateVar string // how StateDir was chosen, for the advice
	MinFree  uint64 // free bytes under which a folder fails (0: DefaultMinFree)
}

// DefaultMinFree is the free space under which the doctor fails a
// folder: st's writes are small, but a filesystem this full is about to
// refuse them.
const DefaultMinFree = 8 << 20

// checkStore checks the agent name, the store and the state folder.
func checkStore(s StoreCheck, fail func(string, ...any), w io.Writer) {
	if s.MinFree == 0 {
		s.MinFree = DefaultMinFree
	}
	if s.Agent != "" && !layout.ValidAgent(s.Agent) {
		fail("agent: %s=%s is not a valid agent name (lowercase letters and digits, with '.' or '-' inside; not a reserved word): "+
			"st's hooks ignore it and record nothing; set a valid one, e.g. %s=%s", s.AgentVar, s.Agent, s.AgentVar, suggestAgent(s.Agent))
	}
	rootOK := checkFolder("store", s.Root, "ST_ROOT", s.MinFree, fail, w)
	if rootOK && isDir(s.Root) {
		checkSharedFS(s.Root, fail, w)
	}
	if rootOK && s.Agent != "" && layout.ValidAgent(s.Agent) && isDir(s.Root) {
		checkFolder("store", filepath.Join(s.Root, s.Agent), "ST_ROOT", s.MinFree, fail, w)
		checkClaims(s.Root, s.Agent, fail)
	}
	checkFolder("state folder", s.StateDir, s.StateVar, s.MinFree, fail, w)
}

// checkFolder checks that st can write in dir (or create it, when it
// does not exist yet) and that its filesystem has room; it reports
// whether all is well.
func checkFolder(label, dir, setBy string, minFree uint64, fail func(string, ...any), w io.Writer) bool {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		fail("%s: %s is a file, not a folder, so st cannot write anything under it: move the file away or set %s to a folder",
			label, dir, setBy)
		return false
	case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		fail("%s: cannot read %s (%v): fix its permissions or set %s to a folder you own", label, dir, bare(err), setBy)
		return false
	}
	probe, created := dir, err == nil
	if !created {
		// st creates the folder on first use: the nearest existing
		// ancestor must be a writable folder.
		for probe = filepath.Dir(probe); ; probe = filepath.Dir(probe) {
			if fi, err := os.Stat(probe); err == nil {
				if !fi.IsDir() {
					fail("%s: %s cannot be created: %s is a file, not a folder; move the file away or set %s elsewhere",
						label, dir, probe, setBy)
					return false
				}
				break
			}
			if probe == filepath.Dir(probe) {
				break
			}
		}
	}
	free, err := fsutil.Probe(probe)
	if err != nil {
		what := dir + " is not writable"
		if !created {
			what = fmt.Sprintf("%s cannot be created: %s is not writable", dir, probe)
		}
		fail("%s: %s (%v): st's hooks drop status, events and retry state without a word; make it writable "+
			"(remount read-write, or give it back to your user: chown -R \"$(id -un)\" %s) or set %s to a folder you own",
			label, what, bare(err), probe, setBy)
		return false
	}
	if free < minFree {
		fail("%s: only %s free on the filesystem of %s: st's writes are about to fail; free some space", label, size(free), probe)
		return false
	}
	note := ""
	if !created {
		note = ", created on first use"
	}
	fmt.Fprintf(w, "  ok    %s: %s writable, %s free%s\n", label, dir, size(free), note)
	return true
}

// checkSharedFS says when the store is on a network or FUSE filesystem,
// where other hosts write too, and probes there that the primitives st
// relies on hold (fsutil.ProbeShared). A local disk gets no line.
func checkSharedFS(root string, fail func(string, ...any), w io.Writer) {
	fsys, err := fsutil.FSOf(root)
	if err != nil || !fsys.Shared {
		return
	}
	if problem := sharedFSProblem(fsys); problem != "" {
		fail("store: %s is on %s, %s: hosts sharing this store can grant one file to two agents and interleave "+
			"their hook state; remount without it (docs/sharedfs.md), or give each host its own store and use st sync", root, fsys, problem)
		return
	}
	if err := fsutil.ProbeShared(root); err != nil {
		fail("store: %s is on %s, and %v: hosts sharing this store can lose or double messages and grant one file "+
			"to two agents; put the store on a filesystem whose locks and links work between clients (see docs/sharedfs.md), "+
			"or give each host its own store and use st sync", root, fsys, bare(err))
		return
	}
	fmt.Fprintf(w, "  ok    store: %s is on %s: flock keeps a second open out, a link never replaces, a rename replaces whole; "+
		"st keeps its locks in the store (%s/) and its watchers look every %s for other hosts' writes%s\n",
		root, fsys, fsutil.SharedLockDir, watch.SharedPoll, sharedFSNote(fsys))
}

// sharedFSProblem is what the mount's options say breaks st on a shared
// filesystem, or "". NFS can keep flock local to each client: with
// local_lock=flock or all (and nolock, NFSv3's way of saying all) every
// host's locks succeed at once. A GlusterFS client with the quick-read
// translator serves a small file cut where a write on another host was.
func sharedFSProblem(fsys fsutil.FS) string {
	if fsys.Name == "fuse.glusterfs" {
		if xl, on, _ := glusterQuickRead(fsys.Mount); on {
			return "whose volume has performance.quick-read on (this client loads " + xl + "), so a reader here can get " +
				"a file cut where another host's write was; turn it off: gluster volume set <volume> performance.quick-read off"
		}
		return ""
	}
	if !strings.HasPrefix(fsys.Name, "nfs") {
		return ""
	}
	for _, o := range strings.Split(fsys.Options, ",") {
		switch o {
		case "local_lock=flock", "local_lock=all":
			return "mounted with " + o + ", so flock locks only this host's processes"
		case "nolock":
			return "mounted with nolock, so flock locks only this host's processes"
		}
	}
	return ""
}

// glusterQuickRead reports whether the GlusterFS client mounted at mount
// loads the quick-read translator, and its name; known is false when the
// client does not show its translators.
func glusterQuickRead(mount string) (xl string, on, known bool) {
	return glusterTranslator(mount, "-quick-read")
}

// glusterTranslator reports whether the GlusterFS client mounted at mount
// loads the translator named <volume><suffix>, and its name: the client's
// meta folder lists the active graph's translators, each exactly while
// the volume option that turns it on is on. known is false when the
// folder cannot be read.
func glusterTranslator(mount, suffix string) (xl string, on, known bool) {
	if mount == "" {
		return "", false, false
	}
	names, err := os.ReadDir(filepath.Join(mount, ".meta", "graphs", "active"))
	if err != nil {
		return "", false, false
	}
	for _, e := range names {
		if strings.HasSuffix(e.Name(), suffix) {
			return e.Name(), true, true
		}
	}
	return "", false, true
}

// sharedFSNote is what the doctor saw, or could not see, beyond the
// probe, or "".
func sharedFSNote(fsys fsutil.FS) string {
	if fsys.Name != "fuse.glusterfs" {
		return ""
	}
	if _, _, known := glusterQuickRead(fsys.Mount); !known {
		return "; GlusterFS also needs its volume option performance.quick-read off, which this client does not show " +
			"(gluster volume get <volume> performance.quick-read; docs/sharedfs.md)"
	}
	note := "; its volume has performance.quick-read off, as st needs"
	// md-cache, the translator of performance.stat-prefetch, keeps handing
	// readers here a replaced file's old handle while they read it at once
	// (docs/sharedfs.md).
	if xl, on, _ := glusterTranslator(fsys.Mount, "-md-cache"); on {
		note += ", and performance.stat-prefetch on (this client loads " + xl + "): several readers here of a file " +
			"another host rewrites wait about a second at each rewrite, and can give up when it is rewritten many times " +
			"a second; for a busy fleet: gluster volume set <volume> performance.stat-prefetch off"
	}
	return note + " (docs/sharedfs.md)"
}

// bare is err without the path that the report already names.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// size writes n bytes for a person.
func size(n uint64) string {
	switch {
	case n >= 10<<30:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 10<<20:
		return fmt.Sprintf("%d MB", n>>20)
	default:
		return fmt.Sprintf("%d KB", n>>10)
	}
}

// suggestAgent is name made valid, as a hint: lowercase, other
// characters as '-', trimmed.
func suggestAgent(name string) string {
	b := []byte{}
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			b = append(b, byte(r-'A'+'a'))
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b = append(b, byte(r))
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	for len(b) > 0 && b[len(b)-1] == '-' {
		b = b[:len(b)-1]
	}
	if s := string(b); layout.ValidAgent(s) {
		return s
	}
	return "alice"
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// checkClaims fails when the hosts syncing the store both claim the
// agent lately (fleet.OtherClaims): the agent runs on two hosts at once,
// each rewriting its status and now.md, so each host's copy loses the
// other's writes. st agents and st overview show it too; the doctor is
// where the person wiring the second host looks.
func checkClaims(root, agent string, fail func(string, ...any)) {
	t, err := fsutil.Open(root)
	if err != nil {
		return // checkFolder said what is wrong with the store
	}
	defer func() { _ = t.Close() }() // read-only
	f := fleet.Read(t, "", time.Now(), 0)
	others := f.OtherClaims(agent)
	if len(others) == 0 {
		return
	}
	home, _ := f.AgentHost(agent)
	fail("fleet: %s writes its own state on %s and on %s at once (their sync records): each host rewrites its status "+
		"and now.md, and whichever wrote last wins everywhere; run %s on one host, or give the other session its own ST_AGENT",
		agent, home.Name, strings.Join(others, ", "), agent)
}
