package main

import (
	"fmt"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/status"
)

type statusCmd struct {
	Set   *string `missing:"--set requires a state value" predict:"offline,available,busy,away,dnd" help:"set the state"`
	Agent string  `arg:"" optional:"" help:"agent"`
}

func (c *statusCmd) help(a *app) string {
	return named(`usage: {NAME} status [<identity>] [--set <state>]

  Get or set an agent status. No args prints your own
  ($ST_AGENT) status; <identity> reads another agent's.
  --set <state> writes your own — states: available | busy |
  away | dnd | offline.

  Examples:
    {NAME} status --set busy      # go heads-down (ding suppresses)
    {NAME} status                 # print my current status
    {NAME} status alice           # read alice's status
`, a.name)
}

func (c *statusCmd) Run(a *app) error {
	if c.Set == nil {
		id, t, err := a.openAgent(c.Agent, layout.Strict)
		if err != nil {
			return err
		}
		defer t.Close()
		_, err = fmt.Fprintln(a.stdout, status.Effective(t, id, a.now()))
		return err
	}
	// Upstream creates the folders before it validates the state.
	id, t, err := a.openAgentWritable(c.Agent, layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := status.Set(t, id, *c.Set); err != nil {
		return err
	}
	_, err = fmt.Fprintf(a.stdout, "status: %s\n", *c.Set)
	return err
}
