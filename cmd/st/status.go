package main

import (
	"fmt"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/status"
)

type statusCmd struct {
	Set   *string `placeholder:"STATE" missing:"--set requires a state value" predict:"offline,available,busy,away,dnd" help:"write this state instead of printing it"`
	JSON  bool    `name:"json" help:"print {\"identity\", \"status\"} as one JSON object"`
	Agent string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose status (default: $ST_AGENT)"`
}

func (c *statusCmd) Run(a *app) error {
	if c.Set == nil {
		id, t, err := a.openAgent(c.Agent, layout.Strict)
		if err != nil {
			return err
		}
		defer t.Close()
		state := status.Effective(t, id, a.now())
		if c.JSON {
			return a.printJSON(statusJSON{id, state})
		}
		_, err = fmt.Fprintln(a.stdout, state)
		return err
	}
	// Upstream creates the folders before it validates the state.
	id, t, err := a.openAgentWritable(c.Agent, layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := a.notHome(t, id, "status"); err != nil {
		return err
	}
	if err := status.Set(t, id, *c.Set); err != nil {
		return err
	}
	a.markHome(id)
	if c.JSON {
		return a.printJSON(statusJSON{id, *c.Set})
	}
	_, err = fmt.Fprintf(a.stdout, "status: %s\n", *c.Set)
	return err
}

// statusJSON is what `status --json` prints, with or without --set: the
// same two fields as each entry of `agents --json`.
type statusJSON struct {
	Identity string `json:"identity"`
	Status   string `json:"status"`
}

// Help is status's paragraph.
func (statusCmd) Help() string {
	return `A status tells other agents and the dashboard whether to expect an answer:
available, busy, away, dnd (do not disturb) or offline. A status that has
not been refreshed for a long time reads as unknown. With --json it prints
{"identity":"alice","status":"busy"}, also after --set.`
}

func (statusCmd) examples() []example {
	return []example{
		{"print your own status", "st status"},
		{"go heads-down", "st status --set busy"},
		{"check whether alice is around", "st status alice"},
		{"the same, for a script", "st status alice --json"},
	}
}
