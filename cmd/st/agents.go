package main

import "errors"

// agentsCmd is a placeholder until its issue lands.
type agentsCmd struct{}

func (c *agentsCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *agentsCmd) Run(a *app) error { return errors.New("not built yet") }
