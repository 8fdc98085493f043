package main

import "errors"

// messageReplyCmd is a placeholder until its issue lands.
type messageReplyCmd struct{}

func (c *messageReplyCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *messageReplyCmd) Run(a *app) error { return errors.New("not built yet") }
