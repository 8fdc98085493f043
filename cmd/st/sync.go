package main

import (
	"fmt"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/peersync"
)

// syncCmd is "sync push|pull <peer>", "sync push|pull --all",
// "sync --all" and "sync sweep": one leaf whose first positional is the
// verb, so its checks run in upstream's order (argv, root-shape warning,
// then verb and peer).
type syncCmd struct {
	All  bool    `help:"apply against every peer in peers.yaml"`
	Verb *string `arg:"" optional:"" predict:"push,pull,sweep" help:"push, pull or sweep"`
	Peer *string `arg:"" optional:"" help:"local:<path>, host:path, or a peers.yaml name"`
}

func (c *syncCmd) help(a *app) string {
	return named(`usage: {NAME} sync push|pull <peer>
       {NAME} sync push|pull --all
       {NAME} sync sweep
       {NAME} sync --all

  rsync your state tree against peers. push sends yours, pull
  fetches theirs, --all does every configured peer, sweep enforces
  the LAYOUT tombstone invariant.

  Examples:
    {NAME} sync pull --all    # conservative cron default (pull-only)
    {NAME} sync --all         # push + pull against every peer
`, a.name)
}

func (c *syncCmd) Run(a *app) error {
	// An empty verb or peer counts as given (upstream tests `=== undefined`).
	verb, hasVerb := deref(c.Verb)
	peer, hasPeer := deref(c.Peer)
	root := a.root()
	a.warnRootShape(root)
	s := &peersync.Syncer{
		Root:      root,
		ConfigDir: a.env.ConfigDir(),
		PathEnv:   a.env.Get("PATH"),
		Stdout:    a.stdout,
		Log:       a.stderr,
	}
	if c.All {
		if hasPeer {
			return sterr.Msg("--all takes no <peer> argument")
		}
		switch {
		case !hasVerb:
			return s.All("")
		case verb == "push" || verb == "pull":
			return s.All(verb)
		case verb == "sweep":
			return sterr.Msg("--all is not meaningful for sweep (sweep is local-only)")
		default:
			return sterr.Msg("--all does not pair with verb: %s", verb)
		}
	}
	if !hasVerb {
		return sterr.Msg("no verb. Use push|pull|sweep|--all")
	}
	switch verb {
	case "push", "pull":
		if !hasPeer {
			return sterr.Msg("<peer> required for %s", verb)
		}
		if verb == "push" {
			return s.Push(peer)
		}
		return s.Pull(peer)
	case "sweep":
		if hasPeer {
			return sterr.Msg("sweep takes no <peer> argument")
		}
		switch n := s.Sweep(); {
		case n == 1:
			fmt.Fprintln(a.stderr, "# sweep: removed 1 redundant inbox file")
		case n > 1:
			fmt.Fprintf(a.stderr, "# sweep: removed %d redundant inbox files\n", n)
		}
		return nil
	default:
		return sterr.Msg("unknown verb: %s", verb)
	}
}

// deref returns *p and whether p was given.
func deref(p *string) (string, bool) {
	if p == nil {
		return "", false
	}
	return *p, true
}

// warnRootShape prints the root-shape warning (inbox.RootShapeWarning)
// on stderr when there is one.
func (a *app) warnRootShape(root string) {
	t, err := fsutil.Open(root)
	if err != nil {
		return
	}
	defer t.Close()
	if w := inbox.RootShapeWarning(t); w != "" {
		fmt.Fprintln(a.stderr, w)
	}
}
