package main

import (
	"io"
	"math"
	"strconv"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/overview"
)

// overviewCmd prints the dashboard of the environment's agent.
type overviewCmd struct {
	Recent *string `placeholder:"N" missing:"--recent must be a non-negative integer" digits:"--recent must be a non-negative integer" help:"how many recent messages to show (default 10)"`
	JSON   bool    `name:"json" help:"print one JSON object"`
}

func (c *overviewCmd) Run(a *app) error {
	recent := overview.DefaultRecent
	if c.Recent != nil {
		n, err := strconv.Atoi(*c.Recent)
		if err != nil {
			n = math.MaxInt // all digits (scan checked), just too large
		}
		recent = n
	}
	id, t, err := a.openAgent("", layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	o := overview.Get(t, id, a.now(), recent, a.operatorMailbox())
	overview.SetFleet(&o, a.fleet(t))
	if c.JSON {
		return a.printJSON(o)
	}
	_, err = io.WriteString(a.stdout, overview.Text(o, a.now()))
	return err
}

// Help is overview's paragraph.
func (overviewCmd) Help() string {
	return `One screen for the start of a turn: how many messages wait in your inbox
and the oldest of them, every agent's status and last activity, and the
most recent messages across the whole store.`
}

func (overviewCmd) examples() []example {
	return []example{
		{"the summary for you", "st overview"},
		{"the last 30 messages store-wide, as JSON", "st overview --recent 30 --json"},
	}
}
