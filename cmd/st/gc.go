package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/lazyre"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/peersync"
)

// gcCmd groups the tombstone garbage collector (only "serve").
type gcCmd struct {
	Serve gcServeCmd `cmd:"" reads:"ST_ROOT" help:"sweep the store on an interval" extra:"unknown flag: %s"`
}

// gcGroup is how `st gc` reacts to a missing or unknown sub-verb.
var gcGroup = group{
	noVerbCode:  exitError,
	unknown:     func(_ *app, v string) string { return "unknown subcommand: " + v + "\n" },
	unknownCode: exitError,
}

// gc serve timing: the default cadence, and a floor so a tiny interval
// cannot busy-spin the disk.
const (
	gcDefaultInterval = 2 * time.Second
	gcMinInterval     = 100 * time.Millisecond
	gcTempsEvery      = time.Minute
)

// gcServeCmd is "gc serve": sweep the root every interval until
// SIGINT/SIGTERM, or once.
type gcServeCmd struct {
	Root     *string `placeholder:"PATH" missing:"--root requires a value" help:"the store to sweep (default: $ST_ROOT)"`
	Interval *string `placeholder:"S" missing:"--interval requires a value" help:"time between sweeps: a duration (2s, 1m) or seconds, fractions allowed (default 2s)"`
	Once     bool    `help:"sweep once and exit"`
}

func (c *gcServeCmd) Run(a *app) error {
	interval := gcDefaultInterval
	if c.Interval != nil {
		d, ok := positiveInterval(*c.Interval, time.Second)
		if !ok {
			return sterr.Msg("--interval must be a positive number of seconds: %s", *c.Interval)
		}
		interval = max(gcMinInterval, d)
	}
	var root string
	if c.Root != nil {
		root = *c.Root
	} else {
		root = a.root()
	}
	a.warnRootShape(root)
	if c.Once {
		fmt.Fprintf(a.stderr, "# gc: swept %d redundant inbox file(s)\n", sweepRoot(root))
		if n := removeTemps(root); n > 0 {
			fmt.Fprintf(a.stderr, "# gc: removed %d stale rsync temp file(s)\n", n)
		}
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(a.stderr, "# gc serve: root=%s interval=%dms (SIGINT/SIGTERM to stop)\n", root, interval.Milliseconds())
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var tempsAt time.Time
	for {
		if n := sweepRoot(root); n > 0 {
			fmt.Fprintf(a.stderr, "# gc: removed %d resurrected inbox file(s)\n", n)
		}
		// Stale temps are an hour old at least: a walk a minute is plenty.
		if time.Since(tempsAt) >= gcTempsEvery {
			tempsAt = time.Now()
			if n := removeTemps(root); n > 0 {
				fmt.Fprintf(a.stderr, "# gc: removed %d stale rsync temp file(s)\n", n)
			}
		}
		select {
		case <-ctx.Done():
			fmt.Fprintln(a.stderr, "# gc serve: stopped")
			return nil
		case <-tick.C:
		}
	}
}

// sweepRoot sweeps root, which may not exist yet (then 0).
func sweepRoot(root string) int {
	t, err := fsutil.Open(root)
	if err != nil {
		return 0
	}
	defer t.Close()
	return inbox.Sweep(t)
}

// removeTemps removes the stale rsync temp files under root
// (peersync.RemoveStaleTemps).
func removeTemps(root string) int {
	t, err := fsutil.Open(root)
	if err != nil {
		return 0
	}
	defer t.Close()
	return peersync.RemoveStaleTemps(t, time.Now())
}

// jsDecimal is the decimal literal JavaScript's Number() accepts,
// compiled on first use: package-level regexps cost every start-up.
var jsDecimal = lazyre.Regexp{Expr: `^[+-]?(Infinity|([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)$`}

// jsNumber converts s like JavaScript's Number(s): surrounding
// whitespace is ignored, "" is 0, 0x/0o/0b integers and Infinity are
// numbers; anything else is not (NaN, ok false).
func jsNumber(s string) (float64, bool) {
	s = jsstr.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	if len(s) > 2 && s[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			n, err := strconv.ParseUint(s[2:], base, 64)
			if err != nil || strings.ContainsAny(s[2:], "_+-") {
				return 0, false
			}
			return float64(n), true
		}
	}
	if !jsDecimal.Get().MatchString(s) {
		return 0, false
	}
	if strings.HasSuffix(s, "Infinity") {
		return math.Inf(map[bool]int{true: -1, false: 1}[s[0] == '-']), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return f, true
}

// Help is gc's paragraph.
func (gcCmd) Help() string {
	return `A sync can bring back the inbox copy of a message that was archived
elsewhere; gc removes such copies so they are not read twice, and the temp
files that killed rsync runs left behind, once they are an hour old.`
}

func (gcCmd) examples() []example { return gcServeCmd{}.examples() }

// Help is gc serve's paragraph.
func (gcServeCmd) Help() string {
	return `Removes every inbox file whose archived copy exists, then repeats every
--interval seconds until SIGINT or SIGTERM. Run it beside a sync job, or let
a supervisor host it.`
}

func (gcServeCmd) examples() []example {
	return []example{
		{"keep the store clean while syncs run", "st gc serve"},
		{"one sweep of another store", "st gc serve --root /srv/smalltalk --once"},
	}
}
