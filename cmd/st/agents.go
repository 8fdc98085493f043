package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/hooks"
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
	Order  string `placeholder:"ORDER" predict:"name,attention" help:"name (default) or attention: the dashboard's order, those needing a person first, each line ending with its group and why and where to go"`
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
	list := agents.List(t, a.now(), agents.Options{Status: c.Status, Mailbox: a.operatorMailbox()})
	f := a.fleet(t)
	agents.SetHosts(list, f)
	switch c.Order {
	case "", "name":
	case "attention":
		return c.byAttention(a, agents.Enrich(t, list, a.now()))
	default:
		return sterr.Msg("--order must be name or attention")
	}
	if c.JSON {
		var v any = list
		if c.Enrich {
			v = agents.Enrich(t, list, a.now())
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

// byAttention prints the agents in the dashboard's attention order.
func (c *agentsCmd) byAttention(a *app, list []agents.Enriched) error {
	agents.SortByAttention(list)
	if c.JSON {
		if c.Enrich {
			return a.printJSON(list)
		}
		plain := make([]agents.Agent, len(list))
		for i, e := range list {
			plain[i] = e.Agent
		}
		return a.printJSON(plain)
	}
	var b strings.Builder
	for _, e := range list {
		name := ""
		if e.Name != nil {
			name = *e.Name
		}
		fmt.Fprintf(&b, "%s\t%s\t%s", e.Identity, e.Status, name)
		if e.Host != nil {
			fmt.Fprintf(&b, "\t%s", e.Host.Ago(a.now()))
		}
		if at := e.Attention; at != nil {
			fmt.Fprintf(&b, "\t%s", at.Label)
			if at.Detail != "" {
				fmt.Fprintf(&b, ": %s", at.Detail)
			}
			if at.Where != nil && !at.Where.Empty() {
				fmt.Fprintf(&b, " (go to %s)", at.Where)
			}
		} else {
			fmt.Fprintf(&b, "\t%s", attention.Label(e.Group()))
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
With --order attention the list follows the dashboard's attention order
and each line ends with the agent's group; an agent waiting on a human, stopped
by an API error, thrashing or busy but silent also says why and where to find
it (its project folder, host and tmux pane, as its hooks last recorded them).
members is an older name for this verb.`
}

func (agentsCmd) examples() []example {
	return []example{
		{"everyone in the store", "st agents"},
		{"who is free to take work", "st agents --status available"},
		{"inbox counts and last activity for a script", "st agents --json --enrich"},
		{"who needs a person first, and where to go", "st agents --order attention"},
	}
}

// operatorMailbox is the mailbox the hooks write to for a person
// (ST_OPERATOR, config.yaml's operator, or operator), which listings do
// not count as an agent.
func (a *app) operatorMailbox() string {
	return hooks.LoadConfig(a.env.ConfigDir()).Recipient(a.env.Get("ST_OPERATOR"))
}
