package main

import "errors"

// messageArchiveCmd is a placeholder until its issue lands.
type messageArchiveCmd struct{}

func (c *messageArchiveCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *messageArchiveCmd) Run(a *app) error { return errors.New("not built yet") }
