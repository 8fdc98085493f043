package main

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
)

type messageThreadCmd struct {
	Tree bool     `help:"indent replies under their parent"`
	Args []string `arg:"" optional:"" help:"[<identity>] <filename>"`
}

func (c *messageThreadCmd) help(a *app) string {
	return named(`usage: {NAME} message thread [<identity>] <filename> [--tree]
`, a.name)
}

func (c *messageThreadCmd) Run(a *app) error {
	agent, name, err := splitPositionals(c.Args)
	if err != nil {
		return err
	}
	// The agent is only validated: the walk is global.
	_, t, err := a.openAgent(agent, layout.Lenient)
	if err != nil {
		return err
	}
	defer t.Close()
	lines, err := inbox.Thread(t, name, c.Tree)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%s%s\t%s\t%s\n", strings.Repeat("  ", l.Depth), l.Name, l.From, l.Subject)
	}
	_, err = fmt.Fprint(a.stdout, b.String())
	return err
}
