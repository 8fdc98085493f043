package main

import (
	"fmt"
	"time"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/reserve"
)

type reservationsCmd struct {
	Agent *string `placeholder:"ID" predict:"@agent" missing:"--agent requires a value" help:"only this agent's (default: everyone's)"`
	JSON  bool    `name:"json" help:"print a JSON array"`
}

func (c *reservationsCmd) Run(a *app) error {
	if c.Agent != nil {
		if err := layout.CheckAgent(*c.Agent); err != nil {
			return err
		}
	}
	t := a.tree()
	defer t.Close()
	now := a.now()
	var all, list []reserve.Reservation
	if t != nil {
		all = reserve.List(t, now)
	}
	for _, r := range all {
		if c.Agent == nil || r.Agent == *c.Agent {
			list = append(list, r)
		}
	}
	conflicts := reserve.Conflicts(all)
	if c.JSON {
		return a.printJSON(reservationsJSON(list, conflicts))
	}
	if len(list) == 0 {
		_, err := fmt.Fprintln(a.stdout, "no active reservations")
		return err
	}
	var lines []string
	for _, r := range list {
		mark := ""
		if conflicts[r.ID] {
			mark = "  CONFLICT"
		}
		line := fmt.Sprintf("%s  %s  %s  until %s (%s left)  %s", r.Agent, r.Mode, r.Pattern,
			r.Expires.Format(time.RFC3339), r.Expires.Sub(now).Round(time.Second), r.Repo)
		if r.Reason != "" {
			line += "  — " + r.Reason
		}
		lines = append(lines, line+mark)
	}
	return a.printLines(lines)
}

// Help is reservations' paragraph.
func (reservationsCmd) Help() string {
	return `One line per active reservation, oldest first: agent, mode, pattern, expiry,
repository and reason; expired and released ones are left out. CONFLICT
marks two reservations that clash because two machines granted them before
a sync brought them together: until one is released, each holder's edits
under the other's reservation are refused.`
}

func (reservationsCmd) examples() []example {
	return []example{
		{"who holds what", "st reservations"},
		{"bob's reservations for a script", "st reservations --agent bob --json"},
	}
}
