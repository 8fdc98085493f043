package main

import (
	"fmt"
	"slices"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/duration"
	"github.com/smalltalk-go/st/internal/layout"
)

type eventsPruneCmd struct {
	OlderThan *string `name:"older-than" placeholder:"DURATION" missing:"--older-than requires a duration" help:"delete logs last written longer ago than this, e.g. 12h, 7d (default 30d)"`
	Agent     string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" help:"whose logs (default: every agent's)"`
}

func (c *eventsPruneCmd) Run(a *app) error {
	age := events.DefaultRetention
	if c.OlderThan != nil {
		d, err := duration.Parse(*c.OlderThan)
		if err != nil {
			return err
		}
		age = d
	}
	var agents []string
	if c.Agent != "" {
		if err := layout.CheckAgent(c.Agent); err != nil {
			return err
		}
		agents = []string{c.Agent}
	}
	t := a.tree()
	if t == nil {
		fmt.Fprintf(a.stdout, "pruned 0 event logs older than %s\n", events.FormatDuration(age))
		return nil
	}
	defer t.Close()
	if c.Agent == "" {
		names, _ := t.ReadDirNames(".")
		slices.Sort(names)
		for _, n := range names {
			if layout.ValidAgent(n) && t.IsDir(events.Dir(n)) {
				agents = append(agents, n)
			}
		}
	}
	cutoff := a.now().Add(-age)
	total := 0
	for _, id := range agents {
		removed, err := events.Prune(t, id, cutoff)
		for _, name := range removed {
			fmt.Fprintf(a.stdout, "removed %s/%s\n", events.Dir(id), name)
		}
		total += len(removed)
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(a.stdout, "pruned %d files older than %s\n", total, events.FormatDuration(age))
	return nil
}
