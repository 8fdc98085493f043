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

  Print the reply chain of a message across every agent's inbox and
  archive: its ancestors and all replies below it, one
  "<filename>\t<from>\t<subject>" line each, oldest first (--tree:
  indented two spaces per level).

  Examples:
    {NAME} message thread 1714826789012-abcdef.md
    {NAME} message thread 1714826789012-abcdef.md --tree
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
