package main

import "errors"

// hookCmd is a placeholder until its issue lands.
type hookCmd struct{}

func (c *hookCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *hookCmd) Run(a *app) error { return errors.New("not built yet") }
