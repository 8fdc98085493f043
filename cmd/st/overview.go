package main

import "errors"

// overviewCmd is a placeholder until its issue lands.
type overviewCmd struct{}

func (c *overviewCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *overviewCmd) Run(a *app) error { return errors.New("not built yet") }
