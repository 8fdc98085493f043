package main

import "errors"

// messageReadCmd is a placeholder until its issue lands.
type messageReadCmd struct{}

func (c *messageReadCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *messageReadCmd) Run(a *app) error { return errors.New("not built yet") }
