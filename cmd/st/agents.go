package main

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/internal/sterr"
)

// agentsCmd lists the agents of the store (alias members, ★9). It never
// resolves an agent and never writes.
type agentsCmd struct {
	Status string `predict:"offline,available,busy,away,dnd,unknown" help:"only agents in this state"`
	JSON   bool   `name:"json" help:"machine-readable array"`
	Enrich bool   `help:"(with --json) add inbox counts and last activity"`
}

func (c *agentsCmd) help(a *app) string {
	return named(`usage: {NAME} agents [--status STATE] [--json [--enrich]]

  Enumerate every agent under $ST_ROOT — i.e. any sub-folder
  with at least one of inbox/ or archive/. Sorted alphabetically.
  Plain read; does not mutate state.

  --status STATE   only agents in STATE (available|busy|away|dnd|offline).
  --json           machine-readable array.
  --enrich         (with --json) add inbox counts + last-activity.

  Examples:
    {NAME} agents                      # id / status / name, tab-separated
    {NAME} agents --status available   # only agents marked available
    {NAME} agents --json --enrich      # rich JSON (inbox + activity)

  Note: `+"`{NAME} members`"+` is the deprecated alias of this verb.
`, a.name)
}

func (c *agentsCmd) Run(a *app) error {
	if c.Enrich && !c.JSON {
		return sterr.Msg("--enrich requires --json")
	}
	t := a.tree()
	defer t.Close()
	list := agents.List(t, a.now(), agents.Options{Status: c.Status})
	if c.JSON {
		var v any = list
		if c.Enrich {
			v = agents.Enrich(t, list)
		}
		return a.printJSON(v)
	}
	var b strings.Builder
	for _, ag := range list {
		name := ""
		if ag.Name != nil {
			name = *ag.Name
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\n", ag.Identity, ag.Status, name)
	}
	_, err := fmt.Fprint(a.stdout, b.String())
	return err
}
