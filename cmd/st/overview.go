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
	Recent *string `missing:"--recent must be a non-negative integer" digits:"--recent must be a non-negative integer" help:"how many recent entries (default 10)"`
	JSON   bool    `name:"json" help:"machine-readable"`
}

func (c *overviewCmd) help(a *app) string {
	return named(`usage: {NAME} overview [--recent N] [--json]

  At-a-glance snapshot for $COORD_IDENTITY:
    - your inbox unread count + oldest item
    - every identity's status + last-activity
    - top N recent activity entries across the tree
`, a.name)
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
	o := overview.Get(t, id, a.now(), recent)
	if c.JSON {
		return a.printJSON(o)
	}
	_, err = io.WriteString(a.stdout, overview.Text(o, a.now()))
	return err
}
