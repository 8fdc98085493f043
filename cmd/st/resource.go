package main

import "errors"

// resourceCmd is a placeholder until its issue lands.
type resourceCmd struct{}

func (c *resourceCmd) help(a *app) string { return "usage: " + a.name + " (not built yet)\n" }

func (c *resourceCmd) Run(a *app) error { return errors.New("not built yet") }
