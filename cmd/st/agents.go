package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/status"
)

// agentsCmd lists the agents of the store (alias members, ★9). It never
// resolves an agent and never writes.
type agentsCmd struct {
	Status string `placeholder:"STATE" predict:"offline,available,busy,away,dnd,unknown" help:"only agents in this state (default: all)"`
	JSON   bool   `name:"json" help:"print a JSON array"`
	Enrich bool   `help:"with --json, add each agent's inbox count and last activity"`
}

func (c *agentsCmd) Run(a *app) error {
	if c.Enrich && !c.JSON {
		return sterr.Msg("--enrich requires --json")
	}
	// A misspelt state would list nobody and look like an empty fleet.
	if c.Status != "" && !slices.Contains(status.Readable, c.Status) {
		return sterr.Msg("--status must be one of %s, got: %s", strings.Join(status.Readable, "|"), c.Status)
	}
	t := a.tree()
	defer t.Close()
	list := agents.List(t, a.now(), agents.Options{Status: c.Status})
	f := a.fleet(t)
	agents.SetHosts(list, f)
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
		fmt.Fprintf(&b, "%s\t%s\t%s", ag.Identity, termsafe.Line(ag.Status), termsafe.Line(name))
		if ag.Host != nil { // a fourth column once st sync has claimed it
			fmt.Fprintf(&b, "\t%s", termsafe.Line(ag.Host.Ago(a.now())))
			if len(ag.AlsoClaimedBy) > 0 {
				fmt.Fprintf(&b, "; ALSO WRITES ON %s", termsafe.Line(strings.Join(ag.AlsoClaimedBy, ", ")))
			}
		}
		b.WriteByte('\n')
	}
	_, err := fmt.Fprint(a.stdout, b.String())
	return err
}

// Help is agents' paragraph.
func (agentsCmd) Help() string {
	return `An agent is any folder of the store with an inbox/ or archive/. Each line
shows the name, the status and the display name, separated by tabs, sorted
by name; once st sync has run, a fourth column names the host the agent
lives on and when its data here was last synced (STALE when too long ago).
members is an older name for this verb.`
}

func (agentsCmd) examples() []example {
	return []example{
		{"everyone in the store", "st agents"},
		{"who is free to take work", "st agents --status available"},
		{"inbox counts and last activity for a script", "st agents --json --enrich"},
	}
}
