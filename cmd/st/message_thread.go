package main

import "errors"

// messageThreadCmd is a placeholder until its issue lands.
type messageThreadCmd struct{}

func (c *messageThreadCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *messageThreadCmd) Run(a *app) error { return errors.New("not built yet") }
