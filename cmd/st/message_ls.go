package main

import "errors"

// messageLsCmd is a placeholder until its issue lands.
type messageLsCmd struct{}

func (c *messageLsCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *messageLsCmd) Run(a *app) error { return errors.New("not built yet") }
