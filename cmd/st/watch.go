package main

import "errors"

// watchCmd is a placeholder until its issue lands.
type watchCmd struct{}

func (c *watchCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *watchCmd) Run(a *app) error { return errors.New("not built yet") }
