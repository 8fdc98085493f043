package main

import "errors"

// completionsCmd is a placeholder until its issue lands.
type completionsCmd struct{}

func (c *completionsCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *completionsCmd) Run(a *app) error { return errors.New("not built yet") }
