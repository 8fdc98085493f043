package main

import "errors"

// mcpCmd is a placeholder until its issue lands.
type mcpCmd struct{}

func (c *mcpCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *mcpCmd) Run(a *app) error { return errors.New("not built yet") }
