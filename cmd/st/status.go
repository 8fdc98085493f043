package main

import (
	"fmt"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/status"
)

type statusCmd struct {
	Set   *string `placeholder:"STATE" missing:"--set requires a state value" predict:"offline,available,busy,away,dnd" help:"write this state instead of printing it"`
	Agent string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose status (default: $ST_AGENT)"`
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
	a.markHome(id)
	_, err = fmt.Fprintf(a.stdout, "status: %s\n", *c.Set)
	return err
}

// Help is status's paragraph.
func (statusCmd) Help() string {
	return `A status tells other agents and the dashboard whether to expect an answer:
available, busy, away, dnd (do not disturb) or offline. A status that has
not been refreshed for a long time reads as unknown.`
}

func (statusCmd) examples() []example {
	return []example{
		{"print your own status", "st status"},
		{"go heads-down", "st status --set busy"},
		{"check whether alice is around", "st status alice"},
	}
}
