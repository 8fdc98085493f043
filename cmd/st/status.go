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

  Print an agent's effective status, or set it.
  States: offline | available | busy | away | dnd
  (unknown = the status file is older than 15 minutes)

  Example: {NAME} status --set busy
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
