package main

import (
	"context"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/internal/duration"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/watch"
)

// watchCmd prints one line per message arriving in an inbox (or, with
// --all, in every inbox but the watcher's own) until SIGINT or SIGTERM.
// Arrivals are noticed through filesystem events, with a poll every
// --interval as the backstop for folders filled without events (sync
// tools, network filesystems); while idle it only sleeps.
type watchCmd struct {
	All         bool    `help:"watch every agent's inbox except your own"`
	From        string  `placeholder:"ID" predict:"@agent" agent:"" help:"with --all, the agent whose inbox is left out (default: $ST_AGENT)"`
	WithSubject bool    `name:"with-subject" help:"print the subject after the filename, separated by a tab"`
	Since       *string `placeholder:"WHEN" missing:"--since requires a duration or a time" help:"first print the messages sent at or after then: a duration ago (30m, 7d), a time (2026-12-02T10:00:00Z) or unix milliseconds (default: every message already there)"`
	SinceNow    bool    `name:"since-now" help:"print only messages that arrive from now on"`
	Interval    *string `placeholder:"MS" missing:"--interval must be a non-negative integer (ms)" help:"how often to look for files that arrived without a filesystem event: milliseconds, or a duration (2s, 1m) (default 500)"`
	Once        bool    `help:"print what is already there and exit"`
	Agent       string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose inbox to watch (default: $ST_AGENT)"`
}

// defaultWatchInterval is upstream's poll period.
const defaultWatchInterval = 500 * time.Millisecond

func (c *watchCmd) Run(a *app) error {
	if c.Since != nil && c.SinceNow {
		return sterr.New(sterr.WatchFlagConflict, "--since and --since-now are mutually exclusive", nil)
	}
	if c.Agent != "" && c.All {
		return sterr.New(sterr.WatchFlagConflict, "--all and <identity> are mutually exclusive", nil)
	}
	var since int64
	if c.Since != nil {
		ms, err := duration.SinceMS(*c.Since, a.now())
		if err != nil {
			return err
		}
		since = ms
	}
	setup := watch.Setup{WithSubject: c.WithSubject}
	switch {
	case c.Agent != "":
		id, err := a.resolve(c.Agent, layout.Lenient)
		if err != nil {
			return err
		}
		setup.Single = id
	case c.All:
		if c.From == "" && a.env.Get("ST_AGENT") == "" {
			return sterr.New(sterr.IdentityRequiredForSuppress,
				"identity required to determine which folder to suppress — set $ST_AGENT", nil)
		}
		id, err := a.resolve(c.From, layout.Strict)
		if err != nil {
			return err
		}
		setup.Suppress = id
	default:
		id, err := a.resolve(c.From, layout.Strict)
		if err != nil {
			return err
		}
		setup.Single = id
	}
	switch {
	case c.Since != nil:
		setup.Cutoff = since
	case c.SinceNow:
		setup.Cutoff = a.now().UnixMilli()
	}
	interval := defaultWatchInterval
	if c.Interval != nil {
		d, ok := watchInterval(*c.Interval)
		if !ok {
			return sterr.Msg("--interval must be a non-negative integer (ms)")
		}
		interval = d
	}
	interval = max(interval, time.Millisecond)

	t, err := a.writableTree()
	if err != nil {
		return err
	}
	defer t.Close()
	f := watch.NewFollower(t, setup)
	if c.Once {
		return printLines(a.stdout, f.Replay())
	}

	// Signals first, so that a Ctrl-C at any point ends the watch (★13:
	// the first one, with rc 0); watches before the replay, so that
	// nothing arriving in between is missed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	w := watch.New(interval)
	defer func() { _ = w.Close() }() // the watch is over; nothing to report
	root := a.root()
	rewatch := func() {
		dirs := []string{root}
		if setup.Single != "" {
			dirs = append(dirs, filepath.Join(root, setup.Single))
		}
		for _, d := range f.Dirs() {
			dirs = append(dirs, filepath.Join(root, filepath.FromSlash(d)))
		}
		w.Watch(dirs...)
	}
	rewatch()
	if err := printLines(a.stdout, f.Replay()); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.Wake():
			rewatch()
			if err := printLines(a.stdout, f.Poll()); err != nil {
				return err
			}
		}
	}
}

func printLines(w io.Writer, lines []watch.Line) error {
	if len(lines) == 0 {
		return nil
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(termsafe.Line(l.String()))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// watchInterval reads watch's --interval: whole milliseconds, as the flag
// always took, or a duration in the grammar every duration flag takes.
func watchInterval(v string) (time.Duration, bool) {
	if jsstr.IsDigits(v) {
		return time.Duration(min(parseDigits(v), math.MaxInt64/int64(time.Millisecond))) * time.Millisecond, true
	}
	d, err := duration.Parse(v)
	return d, err == nil
}

// parseDigits reads an all-digits value (scan checked it), saturating
// instead of overflowing.
func parseDigits(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64
	}
	return n
}

// Help is watch's paragraph.
func (watchCmd) Help() string {
	return `Prints one filename per line, first for the messages already in the inbox,
then for each one that arrives, until interrupted. Made for loops such as
"while read f; do ...; done" and for supervisors watching a whole team.`
}

func (watchCmd) examples() []example {
	return []example{
		{"act on each new message as it lands", "st watch --since-now | while read f; do st message read \"$f\"; done"},
		{"a supervisor's view of every other inbox, with subjects", "st watch --all --with-subject"},
		{"what is waiting in bob's inbox, then exit", "st watch bob --once"},
	}
}
