package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/smalltalk-go/st/peersync"
)

// syncWatchCmd is "sync watch [<root>]": what a spoke's sync serve runs
// on its hub over ssh to hear of the messages that reach the hub.
// Hidden: serve runs it, people need not.
type syncWatchCmd struct {
	Root *string `arg:"" optional:"" form:"[<root>]" help:"the store to watch, as the peer spec names it (default: $ST_ROOT)"`
}

// Help is sync watch's paragraph.
func (syncWatchCmd) Help() string {
	return `Prints a first line naming the protocol, then "inbox <agent> <filename>"
for each message that arrives in the store from then on, and "ping" every
30 s, until its input ends or SIGINT, SIGTERM or SIGHUP. st sync serve on
another host runs it here over ssh so that a message for one of its agents
is pulled as soon as it arrives here, not at the next round.`
}

func (syncWatchCmd) examples() []example {
	return []example{
		{"what a spoke's serve runs on its hub", "st sync watch .local/state/smalltalk"},
		{"watch this host's own store", "st sync watch"},
	}
}

func (c *syncWatchCmd) Run(a *app) error {
	root, ok := deref(c.Root)
	if !ok {
		root = a.root()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return peersync.ReportArrivals(ctx, root, a.stdin, a.stdout)
}
