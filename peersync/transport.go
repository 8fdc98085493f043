package peersync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/internal/sterr"
)

// Transport bounds every rsync a Syncer runs, so that no peer can hold
// a sync for ever: a peer that accepts the connection and then says
// nothing (a suspended VM, a half-dead link) is given up at the latest
// when the deadline passes.
type Transport struct {
	// RSH is the remote shell: $RSYNC_RSH as the user set it, or "ssh"
	// when unset. When it runs ssh, st passes it to rsync with --rsh,
	// adding the ssh bounds (sshBounds, BatchMode) that it does not set
	// itself; any other remote shell is left alone. Empty: rsync chooses
	// (it reads RSYNC_RSH itself) and only the deadline and rsync's I/O
	// timeout bound a transfer.
	RSH string
	// Deadline bounds one peer: a push or pull alone, or the push and pull
	// of one peer in --all. When it passes, rsync (and its ssh) is killed.
	// Zero means DefaultDeadline.
	Deadline time.Duration
	// Interactive says a person at a terminal runs this sync: ssh may ask
	// for a password or passphrase, and rsync stays in the terminal's
	// process group so that Ctrl-C reaches it and the prompt can read the
	// terminal. Otherwise (cron, scripts, serve) ssh runs in BatchMode, so
	// a prompt fails at once instead of waiting, and rsync gets a process
	// group of its own, so the deadline kills its ssh too.
	Interactive bool
	// Ctx stops every transfer when it ends (a signal, serve stopping).
	// nil means never.
	Ctx context.Context

	// Yield runs rsync at a lower CPU priority on both ends (nice 10),
	// for serve's rounds: a message copied at once then never waits for
	// CPU behind the round's whole transfers, on the hub least of all,
	// where every spoke's round lands.
	Yield bool

	// gate, when set, is held by a peer of a parallel --all for all its
	// work but the rsync process itself: the record stamps, sweeps and
	// before/after listings stay one at a time, as in a sequential run,
	// while the transfers overlap.
	gate *sync.Mutex
}

// DefaultDeadline is a peer's deadline when ST_SYNC_TIMEOUT_S is unset:
// long enough for a first copy of a big store over a slow link (a killed
// run keeps the files it completed, so the next one resumes), short
// enough that a stuck peer does not hold a cron job for long.
const DefaultDeadline = 120 * time.Second

// The ssh options st adds unless RSYNC_RSH sets them: give up a
// connection whose server does not answer within 10 s (TCP connect and
// banner), and one that stops answering for 15 s after it was made.
var sshBounds = []struct{ key, value string }{
	{"ConnectTimeout", "10"},
	{"ServerAliveInterval", "5"},
	{"ServerAliveCountMax", "3"},
}

// rsyncIOTimeout is rsync's own --timeout: it gives up when no data
// moves for this long, whatever the remote shell does.
const rsyncIOTimeout = 30

// waitDelay bounds the wait for rsync's output pipes after it ended: a
// killed rsync's ssh may still hold its stderr.
const waitDelay = 2 * time.Second

func (s *Syncer) deadline() time.Duration {
	if s.Deadline > 0 {
		return s.Deadline
	}
	return DefaultDeadline
}

// transportArgs are the rsync options that bound a transfer: its I/O
// timeout and, when the remote shell is ssh, the ssh options.
func (s *Syncer) transportArgs() []string {
	args := []string{"--timeout=" + strconv.Itoa(rsyncIOTimeout)}
	if rsh, ok := boundedRSH(s.RSH, !s.Interactive); ok {
		args = append(args, "--rsh="+rsh)
	}
	return args
}

// boundedRSH returns the remote shell command to pass to rsync: rsh with
// the ssh bounds it does not set itself, and BatchMode when batch. ok is
// false when rsh is empty or not ssh: st does not know another program's
// options, so rsync then uses RSYNC_RSH unchanged.
func boundedRSH(rsh string, batch bool) (string, bool) {
	words := strings.Fields(rsh)
	if len(words) == 0 {
		return "", false
	}
	if filepath.Base(strings.Trim(words[0], `"'`)) != "ssh" {
		return "", false
	}
	set := sshOptionsSet(words[1:])
	var b strings.Builder
	b.WriteString(rsh)
	add := func(key, value string) {
		if !set[strings.ToLower(key)] {
			fmt.Fprintf(&b, " -o %s=%s", key, value)
		}
	}
	for _, o := range sshBounds {
		add(o.key, o.value)
	}
	if batch {
		add("BatchMode", "yes")
	}
	return b.String(), true
}

// sshOptionsSet returns the (lower-cased) names of the options that ssh
// arguments set with -o, in either spelling ("-o Key=v", "-oKey=v",
// "-o 'Key v'").
func sshOptionsSet(args []string) map[string]bool {
	set := map[string]bool{}
	for i := 0; i < len(args); i++ {
		var opt string
		switch a := args[i]; {
		case a == "-o" && i+1 < len(args):
			i++
			opt = args[i]
		case strings.HasPrefix(a, "-o"):
			opt = a[2:]
		default:
			continue
		}
		opt = strings.TrimLeft(opt, `"'`)
		key, _, _ := strings.Cut(opt, "=")
		key, _, _ = strings.Cut(key, " ")
		set[strings.ToLower(key)] = true
	}
	return set
}

// rsyncRun is one rsync process under the Syncer's deadline.
type rsyncRun struct {
	*exec.Cmd
	s      *Syncer
	ctx    context.Context
	cancel context.CancelFunc
}

// command prepares rsync to run under the deadline and the Syncer's
// context.
func (s *Syncer) command(bin string, args []string) *rsyncRun {
	parent := s.Ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, s.deadline())
	cmd := exec.CommandContext(ctx, bin, args...)
	if !s.Interactive {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error {
			// The whole group: rsync and the ssh it started.
			return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}
	cmd.WaitDelay = waitDelay
	return &rsyncRun{Cmd: cmd, s: s, ctx: ctx, cancel: cancel}
}

// run runs rsync; stderr is the buffer its stderr goes to. A run the
// deadline or the context stopped gets a line saying so in stderr. Exit
// 24 ("some files vanished before they could be transferred") counts as
// success: a file removed at the source while rsync ran (a pruned host
// record, a swept inbox twin) no longer needs copying; the log names them.
func (r *rsyncRun) run(stderr *bytes.Buffer) error {
	defer r.cancel()
	var err error
	if g := r.s.gate; g != nil {
		g.Unlock()
		err = r.Cmd.Run()
		g.Lock()
	} else {
		err = r.Cmd.Run()
	}
	if err == nil {
		return nil
	}
	switch cause := r.ctx.Err(); {
	case errors.Is(cause, context.DeadlineExceeded):
		fmt.Fprintf(stderr, "st: gave up after %v (the per-peer deadline, ST_SYNC_TIMEOUT_S): rsync and its ssh were stopped\n", r.s.deadline())
		return err
	case cause != nil:
		fmt.Fprintln(stderr, "st: stopped: rsync and its ssh were stopped")
		return err
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 24 {
		if names := vanished(stderr.String()); len(names) > 0 {
			fmt.Fprintf(r.s.Log, "# %d %s vanished while copying (removed at the source meanwhile; nothing lost): %s\n",
				len(names), plural(len(names), "file", "files"), strings.Join(names, ", "))
		}
		return nil
	}
	return err
}

// vanished returns the files rsync reported as vanished, as it quoted them.
func vanished(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		if _, name, ok := strings.Cut(line, "file has vanished: "); ok {
			out = append(out, strings.TrimSpace(name))
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// reasonOptionLike is the details reason of a refused option-like spec.
const reasonOptionLike = "peer spec looks like an option"

// refuseOptionLike refuses a peer spec that rsync or ssh would read as an
// option rather than a place: one that starts with "-", a local: path, a
// host (after user@) or a remote path that does. Such a spec would make
// rsync run with an option nobody meant and report success having copied
// nothing.
func refuseOptionLike(spec string) error {
	bad := strings.HasPrefix(spec, "-")
	if p, ok := strings.CutPrefix(spec, "local:"); ok {
		bad = strings.HasPrefix(p, "-")
	} else if host, path, ok := strings.Cut(spec, ":"); ok {
		if _, h, ok := strings.Cut(host, "@"); ok && strings.HasPrefix(h, "-") {
			bad = true
		}
		if strings.HasPrefix(path, "-") {
			bad = true
		}
	}
	if !bad {
		return nil
	}
	msg := fmt.Sprintf("refusing peer %s: a user, host or path may not start with '-' (rsync would take it for an option)", strconv.Quote(spec))
	if p, ok := strings.CutPrefix(spec, "local:"); ok {
		msg += "; for a folder of that name write local:./" + p
	}
	return sterr.New(sterr.PeersConfigInvalid, msg, map[string]any{"spec": spec, "reason": reasonOptionLike})
}
