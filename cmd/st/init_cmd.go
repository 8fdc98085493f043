package main

import "errors"

// initCmd is a placeholder until its issue lands.
type initCmd struct{}

func (c *initCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *initCmd) Run(a *app) error { return errors.New("not built yet") }
