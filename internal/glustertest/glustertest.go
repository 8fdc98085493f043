// Package glustertest gives tests a real distributed filesystem: one
// GlusterFS volume on a single brick served on loopback, mounted several
// times through FUSE, each mount standing in for one host. The volume
// and glusterd stay up between test binaries (setting them up is the
// slow part, and every binary shares them); each Store is a fresh folder
// of the volume seen through its own mounts, and Close unmounts those and
// removes the folder, so nothing of one test reaches another.
//
// It needs root, /dev/fuse and the glusterfs-server and glusterfs-client
// packages; elsewhere Available says which of them is missing and
// ForTest skips with that reason.
package glustertest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Volume is the volume every test shares, and Brick the folder it
// keeps its files in.
const (
	Volume = "stvol"
	Brick  = "/bricks/stvol"
)

// QuickRead is the volume option st needs off. quick-read caches a small
// file's content in each client when it is looked up and serves that
// copy for a while: a lookup of a temp file mid-write (a sweep's lstat, a
// listing) through one mount then hands a reader there the file cut
// where the write was, after the writer on another mount has published
// it whole (docs/sharedfs.md).
const QuickRead = "performance.quick-read"

// QuickReadVolume is a second volume, with QuickRead left on (GlusterFS's
// default), for the tests that st notices it (SetupQuickReadOn).
const QuickReadVolume = "stvol-quickread"

// StatPrefetch is the volume option of the client's metadata cache
// (md-cache), on by default, and on for Volume: st's readers must hold
// with it, and the doctor advises turning it off for a busy fleet.
const StatPrefetch = "performance.stat-prefetch"

// StatPrefetchOffVolume is a third volume, with StatPrefetch off too, to
// measure what turning it off changes (SetupStatPrefetchOff).
const StatPrefetchOffVolume = "stvol-nostatprefetch"

// options are the values a volume's options must have.
type options map[string]string

// mountBase holds the mount points, one folder per process and mount
// (<pid>-<n>), so a crashed test's leftovers can be told from a live
// one's and swept.
const mountBase = "/run/st-glustertest"

// ErrUnavailable means this machine cannot run the volume; tests skip on it.
var ErrUnavailable = errors.New("glusterfs unavailable")

// Store is one fresh folder of the volume seen through several mounts:
// Dirs[i] is the folder under mount i, and a write through one of them
// is a write another host would make.
type Store struct {
	Mounts []string // the mount points
	Dirs   []string // the same folder under each mount
}

// Available reports why this machine cannot mount the volume, or nil.
func Available() error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("%w: not root (mounting needs it)", ErrUnavailable)
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		return fmt.Errorf("%w: no /dev/fuse", ErrUnavailable)
	}
	for _, tool := range []string{"glusterd", "gluster"} {
		if _, err := lookPath(tool); err != nil {
			return fmt.Errorf("%w: no %s binary (apt-get install glusterfs-server)", ErrUnavailable, tool)
		}
	}
	if _, err := lookPath("mount.glusterfs"); err != nil {
		return fmt.Errorf("%w: no mount.glusterfs (apt-get install glusterfs-client)", ErrUnavailable)
	}
	return nil
}

// lookPath finds tool on PATH or in the sbin folders, which a test's
// PATH often lacks.
func lookPath(tool string) (string, error) {
	if p, err := exec.LookPath(tool); err == nil {
		return p, nil
	}
	for _, d := range []string{"/usr/sbin", "/sbin"} {
		p := filepath.Join(d, tool)
		if fi, err := os.Stat(p); err == nil && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found", tool)
}

// Setup makes sure glusterd runs and the volume is started, mounts it n
// times and makes a fresh folder on it. Close undoes the mounts and the
// folder.
func Setup(n int) (*Store, error) {
	return setup(Volume, options{QuickRead: "off", StatPrefetch: "on"}, n)
}

// SetupQuickReadOn is Setup on QuickReadVolume, whose QuickRead is on.
func SetupQuickReadOn(n int) (*Store, error) {
	return setup(QuickReadVolume, options{QuickRead: "on"}, n)
}

// SetupStatPrefetchOff is Setup on StatPrefetchOffVolume, whose
// StatPrefetch is off.
func SetupStatPrefetchOff(n int) (*Store, error) {
	return setup(StatPrefetchOffVolume, options{QuickRead: "off", StatPrefetch: "off"}, n)
}

// setup is Setup of volume vol, with its options set to opts.
func setup(vol string, opts options, n int) (*Store, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, errors.New("glustertest: at least one mount")
	}
	// Test binaries run side by side: one at a time sets the volume up.
	unlock, err := machineLock()
	if err != nil {
		return nil, err
	}
	err = ensureVolume(vol, opts)
	if err == nil {
		sweepStale()
	}
	unlock()
	if err != nil {
		return nil, err
	}
	s := &Store{}
	for i := range n {
		mp := filepath.Join(mountBase, fmt.Sprintf("%d-%d-%s", os.Getpid(), i, randHex(3)))
		if err := os.MkdirAll(mp, 0o755); err != nil {
			s.Close()
			return nil, err
		}
		if out, err := exec.Command("mount", "-t", "glusterfs", "127.0.0.1:/"+vol, mp).CombinedOutput(); err != nil {
			_ = os.Remove(mp) // nothing mounted on it
			s.Close()
			return nil, fmt.Errorf("mount %s: %v: %s", mp, err, strings.TrimSpace(string(out)))
		}
		s.Mounts = append(s.Mounts, mp)
	}
	name := fmt.Sprintf("t-%d-%s", os.Getpid(), randHex(4))
	if err := os.Mkdir(filepath.Join(s.Mounts[0], name), 0o777); err != nil {
		s.Close()
		return nil, err
	}
	for _, mp := range s.Mounts {
		s.Dirs = append(s.Dirs, filepath.Join(mp, name))
	}
	// Every mount sees the folder before the caller writes through it.
	for _, d := range s.Dirs {
		if err := waitFor(5*time.Second, func() bool { _, err := os.Stat(d); return err == nil }); err != nil {
			s.Close()
			return nil, fmt.Errorf("%s: folder made through another mount not seen: %v", d, err)
		}
	}
	return s, nil
}

// Close removes the store's folder and unmounts its mounts.
func (s *Store) Close() {
	if len(s.Dirs) > 0 {
		_ = os.RemoveAll(s.Dirs[0]) // best effort: a leftover folder harms no other test
	}
	for _, mp := range s.Mounts {
		unmount(mp)
	}
	s.Mounts, s.Dirs = nil, nil
}

func unmount(mp string) {
	if err := unix.Unmount(mp, 0); err != nil {
		// Busy (a process of the test still in it): detach it now; the
		// kernel finishes when the last user goes.
		_ = unix.Unmount(mp, unix.MNT_DETACH) // nothing more to try
	}
	_ = os.Remove(mp) // the empty mount point; a failure leaves an empty folder
}

// sweepStale unmounts the mount points of test processes that are gone
// (killed before their cleanup ran).
func sweepStale() {
	ents, err := os.ReadDir(mountBase)
	if err != nil {
		return
	}
	for _, e := range ents {
		pidText, _, _ := strings.Cut(e.Name(), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			continue
		}
		unmount(filepath.Join(mountBase, e.Name()))
	}
}

// ensureVolume starts glusterd unless it answers, then creates the
// volume unless it is, sets its options to opts, and starts it unless it
// runs.
func ensureVolume(vol string, opts options) error {
	if _, err := gluster("pool", "list"); err != nil {
		glusterd, _ := lookPath("glusterd")
		if out, err := exec.Command(glusterd).CombinedOutput(); err != nil {
			return fmt.Errorf("%w: starting glusterd: %v: %s", ErrUnavailable, err, strings.TrimSpace(string(out)))
		}
		if err := waitFor(20*time.Second, func() bool { _, err := gluster("pool", "list"); return err == nil }); err != nil {
			return fmt.Errorf("%w: glusterd does not answer", ErrUnavailable)
		}
	}
	info, err := gluster("volume", "info", vol)
	if err != nil {
		host, herr := os.Hostname()
		if herr != nil {
			return herr
		}
		brick := Brick
		if vol != Volume {
			brick = filepath.Join(filepath.Dir(Brick), vol)
		}
		if err := os.MkdirAll(brick, 0o755); err != nil {
			return err
		}
		// force: the brick is on the root filesystem, which gluster
		// otherwise refuses.
		if _, err := gluster("volume", "create", vol, host+":"+brick, "force"); err != nil {
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		if info, err = gluster("volume", "info", vol); err != nil {
			return err
		}
	}
	for _, opt := range slices.Sorted(maps.Keys(opts)) {
		want := opts[opt]
		if got, err := gluster("volume", "get", vol, opt); err != nil || !strings.Contains(got, " "+want) {
			if _, err := gluster("volume", "set", vol, opt, want); err != nil {
				return err
			}
		}
	}
	if !strings.Contains(info, "Status: Started") {
		if _, err := gluster("volume", "start", vol); err != nil {
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
	// After a restart of the machine the brick process may lag glusterd,
	// or it may have died (killed with the session that started it) while
	// glusterd still counts the volume started: a forced start starts the
	// bricks that are down and leaves the others.
	online := func() bool {
		out, err := gluster("volume", "status", vol)
		return err == nil && brickOnline(out)
	}
	if waitFor(5*time.Second, online) == nil {
		return nil
	}
	removeStalePIDFiles(vol)
	if _, err := gluster("volume", "start", vol, "force"); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return waitFor(20*time.Second, online)
}

// brickPIDFiles is where glusterd keeps each brick's pid, per volume.
const brickPIDFiles = "/var/run/gluster/vols"

// removeStalePIDFiles removes the pid files of vol's bricks that name no
// brick process: glusterd takes a pid that is alive for its brick and
// does not start it, and once the brick is dead its pid may be any
// process's.
func removeStalePIDFiles(vol string) {
	files, _ := filepath.Glob(filepath.Join(brickPIDFiles, vol, "*.pid"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join("/proc", strings.TrimSpace(string(data)), "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "glusterfsd" {
			_ = os.Remove(f) // best effort: the forced start then reports what is wrong
		}
	}
}

// brickOnline reads `gluster volume status`: the brick's line ends in
// "Y <pid>" once its process is up.
func brickOnline(status string) bool {
	for _, line := range strings.Split(status, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && strings.HasPrefix(line, "Brick ") && f[len(f)-2] == "Y" {
			return true
		}
	}
	return false
}

// gluster runs the CLI in script mode (no prompts), retrying while
// another command holds glusterd's cluster lock.
func gluster(args ...string) (string, error) {
	bin, err := lookPath("gluster")
	if err != nil {
		return "", err
	}
	var out []byte
	for range 20 {
		out, err = exec.Command(bin, append([]string{"--mode=script"}, args...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "Another transaction") {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil {
		return string(out), fmt.Errorf("gluster %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// machineLock serialises the setup between processes of this machine.
func machineLock() (func(), error) {
	if err := os.MkdirAll(mountBase, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(mountBase, ".setup.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		_ = f.Close() // the lock error is the one to report
		return nil, err
	}
	return func() { _ = f.Close() }, nil // closing releases the lock
}

func waitFor(limit time.Duration, ok func() bool) error {
	end := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(end) {
			return fmt.Errorf("not within %s", limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand does not fail on Linux
	return hex.EncodeToString(b)
}

// CPU is the processor time used so far by the volume's brick process
// (glusterfsd: the server every host's writes reach) and by this store's
// FUSE clients (one glusterfs process per mount: each host's share), so
// a benchmark can say what a write costs the server and each host.
func (s *Store) CPU() (brick, clients time.Duration) {
	mine := map[string]bool{}
	for _, mp := range s.Mounts {
		mine[mp] = true
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err != nil || len(raw) == 0 {
			continue
		}
		args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		switch filepath.Base(args[0]) {
		case "glusterfsd":
			if slices.Contains(args, Brick) {
				brick += procCPU(p.Name())
			}
		case "glusterfs":
			if mine[args[len(args)-1]] {
				clients += procCPU(p.Name())
			}
		}
	}
	return brick, clients
}

// procCPU is the user and system time of process pid, from
// /proc/<pid>/stat (in clock ticks, 100 a second on Linux).
func procCPU(pid string) time.Duration {
	raw, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0
	}
	// The command name in brackets may hold spaces: count from its end.
	i := strings.LastIndexByte(string(raw), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
