package main

import "errors"

// gcCmd is a placeholder until its issue lands.
type gcCmd struct{}

func (c *gcCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *gcCmd) Run(a *app) error { return errors.New("not built yet") }
