package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/peersync"
)

// syncGroup is `sync`: "serve" selects the long-running loop, anything
// else is the hidden default verb (push, pull, sweep, --all).
type syncGroup struct {
	Serve syncServeCmd `cmd:"" reads:"ST_ROOT ST_CONFIG ST_HOST PATH RSYNC_RSH ST_SYNC_TIMEOUT_S ST_SYNC_REMOTE_ST" help:"sync with every peer in a loop, and copy each message at once"`
	Watch syncWatchCmd `cmd:"" hidden:"" reads:"ST_ROOT" help:"report the messages that reach this store, for a peer's sync serve"`
	Run   syncCmd      `cmd:"" default:"withargs" hidden:"" reads:"ST_ROOT ST_CONFIG ST_HOST PATH RSYNC_RSH ST_SYNC_TIMEOUT_S" help:"push or pull the store to and from peers with rsync"`
}

// Help is sync's paragraph.
func (syncGroup) Help() string { return syncCmd{}.Help() }

// syncServeCmd is "sync serve [push|pull]".
type syncServeCmd struct {
	Verb     *string `arg:"" optional:"" form:"[push|pull]" predict:"push,pull" help:"only push (a mesh where every host runs serve) or only pull; default both"`
	Interval *string `placeholder:"S" missing:"--interval requires a value" help:"time between rounds with every peer: a duration (5s, 2m) or seconds, fractions allowed (default 5s)"`
}

// syncLockWait is how long a sync waits for another one on the same
// root before it gives up: long enough for a cron run that is about to
// finish, short enough that runs started every few seconds never pile up.
const syncLockWait = 2 * time.Second

func (c *syncServeCmd) Run(a *app) error {
	verb, _ := deref(c.Verb)
	if verb != "" && verb != "push" && verb != "pull" {
		return sterr.Msg("sync serve: unknown verb: %s (push, pull or none)", verb)
	}
	interval := peersync.DefaultServeInterval
	if c.Interval != nil {
		d, ok := positiveInterval(*c.Interval, time.Second)
		if !ok {
			return sterr.Msg("--interval must be a positive number of seconds: %s", *c.Interval)
		}
		interval = max(gcMinInterval, d)
	}
	root := a.root()
	a.warnRootShape(root)
	if err := os.MkdirAll(root, 0o777); err != nil {
		return err
	}
	s, stop := a.syncer(root, false)
	defer stop()
	unlock, err := s.Lock(s.Ctx, syncLockWait)
	if err != nil {
		return err
	}
	defer unlock()
	fmt.Fprintf(a.stderr, "# sync serve: root=%s interval=%dms deadline=%v (SIGINT/SIGTERM to stop)\n", root, interval.Milliseconds(), s.Deadline)
	remote := a.env.Get("ST_SYNC_REMOTE_ST")
	if remote == "" {
		remote = "st"
	}
	if err := s.Serve(s.Ctx, peersync.ServeOptions{Verb: verb, Interval: interval, Watch: remote}); err != nil {
		return err
	}
	fmt.Fprintln(a.stderr, "# sync serve: stopped")
	return nil
}

// syncer is the Syncer for root with this run's transport: the user's
// RSYNC_RSH, the ST_SYNC_TIMEOUT_S deadline, ssh prompts only for a
// person at a terminal (never in serve), and a context that SIGINT or
// SIGTERM ends, which stops every rsync. Call stop when done.
func (a *app) syncer(root string, interactive bool) (*peersync.Syncer, func()) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	rsh := a.env.Get("RSYNC_RSH")
	if rsh == "" {
		rsh = "ssh" // rsync's own default
	}
	return &peersync.Syncer{
		Root:      root,
		ConfigDir: a.env.ConfigDir(),
		PathEnv:   a.env.Get("PATH"),
		Stdout:    a.stdout,
		Log:       a.stderr,
		Host:      fleet.Local(a.env.Get("ST_HOST")),
		StateDir:  a.stateDir(),
		Transport: peersync.Transport{
			RSH:         rsh,
			Deadline:    syncDeadline(a.env.Get("ST_SYNC_TIMEOUT_S")),
			Interactive: interactive && isTerminal(a.stdin),
			Ctx:         ctx,
		},
	}, stop
}

// syncDeadline reads ST_SYNC_TIMEOUT_S: seconds, fractions allowed;
// anything that is not a positive number means the default.
func syncDeadline(v string) time.Duration {
	s, ok := jsNumber(v)
	if !ok || s <= 0 || math.IsInf(s, 0) || s > 1e9 {
		return peersync.DefaultDeadline
	}
	return max(time.Millisecond, time.Duration(s*float64(time.Second)))
}

// Help is sync serve's paragraph.
func (syncServeCmd) Help() string {
	return `Runs st sync --all in a loop until SIGINT or SIGTERM: a round with every
peer each interval (moved by up to a fifth either way, so hosts started
together drift apart), and a copy to every peer of each message written
here as soon as it is, by name, so a message reaches a peer in under a
second; a status, a context or an archive move goes with the next round.
Unless it only pushes, it also keeps one ssh connection to each peer
running st sync watch there (the st of the peer's PATH for ssh commands,
or ST_SYNC_REMOTE_ST), which reports each message that reaches the peer:
one for an agent of this host is pulled by name at once, so through a hub
a message arrives as fast as in a mesh, and the transfers share that
connection. Where the peer has no st, serve says so once and the
rounds bring its messages; a dropped connection is made again after 1, 2,
4... s (at most five minutes). A peer that fails is tried again after
twice the wait each time, up to five minutes, while the others go on. Like
every sync it holds the store's sync lock while it runs: a cron st sync on
the same store then gives up after 2 s instead of piling up. Each rsync is
bounded by the per-peer deadline (ST_SYNC_TIMEOUT_S, default 120).`
}

func (syncServeCmd) examples() []example {
	return []example{
		{"keep this host in sync with every peer", "st sync serve"},
		{"a mesh host that only sends, rounds every 10 s", "st sync serve push --interval 10"},
		{"a spoke whose hub has st outside ssh's PATH", "ST_SYNC_REMOTE_ST=/opt/st/bin/st st sync serve"},
	}
}
