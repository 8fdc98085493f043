package main

import "errors"

// hooksCmd is a placeholder until its issue lands.
type hooksCmd struct{}

func (c *hooksCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *hooksCmd) Run(a *app) error { return errors.New("not built yet") }
