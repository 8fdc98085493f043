package main

import (
	"fmt"
	"path/filepath"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

// syncCmd is "sync push|pull <peer>", "sync push|pull --all",
// "sync --all", "sync sweep" and "sync forget <host>": one leaf whose first positional is the
// verb, so its checks run in upstream's order (argv, root-shape warning,
// then verb and peer).
type syncCmd struct {
	All  bool    `help:"every peer in peers.yaml; alone, push to and pull from each"`
	Verb *string `arg:"" optional:"" form:"[push|pull|sweep|forget]" predict:"push,pull,sweep,forget" help:"push sends your store, pull fetches a peer's, sweep drops inbox copies of archived messages, forget drops a retired host's record"`
	Peer *string `arg:"" optional:"" form:"[<peer>|<host>]" help:"a peers.yaml name, host:path or local:<path>; for forget, the host's name as st agents shows it"`
}

func (c *syncCmd) Run(a *app) error {
	// An empty verb or peer counts as given (upstream tests `=== undefined`).
	verb, hasVerb := deref(c.Verb)
	peer, hasPeer := deref(c.Peer)
	root := a.root()
	a.warnRootShape(root)
	s, stop := a.syncer(root, true)
	defer stop()
	if c.All {
		if hasPeer {
			return sterr.Msg("--all takes no <peer> argument")
		}
		switch {
		case !hasVerb || verb == "push" || verb == "pull":
			unlock, err := s.Lock(s.Ctx, syncLockWait)
			if err != nil {
				return err
			}
			defer unlock()
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
		unlock, err := s.Lock(s.Ctx, syncLockWait)
		if err != nil {
			return err
		}
		defer unlock()
		if verb == "push" {
			return s.Push(peer)
		}
		return s.Pull(peer)
	case "forget":
		if !hasPeer {
			return sterr.Msg("<host> required for forget")
		}
		return s.Forget(peer)
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
		switch n := s.RemoveStaleTemps(); {
		case n == 1:
			fmt.Fprintln(a.stderr, "# sweep: removed 1 stale rsync temp file")
		case n > 1:
			fmt.Fprintf(a.stderr, "# sweep: removed %d stale rsync temp files\n", n)
		}
		return nil
	default:
		return sterr.Msg("unknown verb: %s", verb)
	}
}

// stateDir is this machine's state folder: $XDG_STATE_HOME, else
// ~/.local/state.
func (a *app) stateDir() string {
	if d := a.env.Get("XDG_STATE_HOME"); d != "" {
		return d
	}
	return filepath.Join(a.env.Home(), ".local", "state")
}

// markHome notes that agent id wrote its own state on this machine, so
// this host's sync record claims it (fleet.MarkHome). Only the agent's
// own writes count ($ST_AGENT is id): writing for another agent does
// not move it here. Best effort.
func (a *app) markHome(id string) {
	if a.envAgent() == id && layout.ValidAgent(id) {
		_ = fleet.MarkHome(a.stateDir(), a.root(), id, a.now()) // best effort: a missing mark only delays the claim to the next write
	}
}

// envAgent is the agent the environment names, as AgentName resolves it
// but without its legacy-variable notice: marking a home must not print
// what only resolving the sender should.
func (a *app) envAgent() string {
	for _, key := range []string{"ST_AGENT", "ST_IDENTITY", "COORD_IDENTITY"} {
		if v := a.env.Get(key); v != "" {
			return v
		}
	}
	return ""
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

// Help is sync's paragraph.
func (syncCmd) Help() string {
	return `Copies the store with rsync over ssh (or between local folders), never
deleting: an archived message wins over its inbox copy, so a message
archived anywhere is archived everywhere after the next sweep. Peers are
named in $ST_CONFIG/peers.yaml. Only folders and regular files up to 256 MiB
are copied: a peer's symbolic links, FIFOs and devices are skipped. Each
sync leaves this host's record in the store, so st agents and st overview
can say where every agent lives: the host where the agent itself last
wrote its status, context or messages. An agent's status, now.md and event
logs travel from its home host only, and a host's record from that host:
a pull never takes a peer's copy of them for an agent that lives here,
and takes another host's only when the peer's record of that host is
newer. No host's clock decides which copy wins. A sync or sweep also removes the temp files
that killed rsync runs left behind, once they are an hour old; a pull also
removes on the peer the archived messages' inbox copies and the old host
records it just dropped here. "forget" drops a retired host's record here
and on every peer in peers.yaml.

Nothing waits for ever: ssh gives up on a peer that does not answer, and
each peer has a deadline (ST_SYNC_TIMEOUT_S, default 120 s) after which its
rsync and ssh are stopped; --all then goes on with the others (four at a
time), names the failed ones and exits 1. Two syncs of one store never run
together: the second waits 2 s for the first, then exits 1 having done
nothing.`
}

func (syncCmd) examples() []example {
	return []example{
		{"fetch from every peer (a good cron job)", "st sync pull --all"},
		{"send your store to one machine", "st sync push devbox"},
		{"push to and pull from every peer", "st sync --all"},
		{"drop the record of a machine you retired", "st sync forget old-laptop"},
		{"see which hosts the store knows first", "st agents"},
	}
}

// fleet is the store's fleet view for this machine (ST_HOST, else the
// host name); ST_SYNC_STALE_S sets when a host counts as stale.
func (a *app) fleet(t *fsutil.Tree) fleet.Fleet {
	return fleet.Read(t, fleet.Local(a.env.Get("ST_HOST")), a.now(), fleet.ParseStaleAfter(a.env.Get("ST_SYNC_STALE_S")))
}
