package main

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/termsafe"
)

type messageThreadCmd struct {
	Tree bool     `help:"indent each reply under the message it answers"`
	Args []string `arg:"" optional:"" form:"[<identity>] <filename>" predict:"@agent-message" agent:"" help:"an agent (default: $ST_AGENT) and any message of the thread"`
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
		fmt.Fprintf(&b, "%s%s\t%s\t%s\n", strings.Repeat("  ", l.Depth), termsafe.Line(l.Name), termsafe.Line(l.From), termsafe.Line(l.Subject))
	}
	_, err = fmt.Fprint(a.stdout, b.String())
	return err
}

// Help is message thread's paragraph.
func (messageThreadCmd) Help() string {
	return `Follows in-reply-to links up to the first message and back down through
every reply, in every agent's inbox and archive. Each line is the filename,
the sender and the subject, separated by tabs, oldest first.`
}

func (messageThreadCmd) examples() []example {
	return []example{
		{"print the conversation around a message", "st message thread 1795966371663-k3x9qa.md"},
		{"show who answered whom", "st message thread bob 1795966371663-k3x9qa.md --tree"},
	}
}
