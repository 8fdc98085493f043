package main

import "errors"

// syncCmd is a placeholder until its issue lands.
type syncCmd struct{}

func (c *syncCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *syncCmd) Run(a *app) error { return errors.New("not built yet") }
