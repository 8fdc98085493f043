package main

import (
	"fmt"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// messageArchiveCmd is `message archive`: its first argument "trim"
// selects the trim verb, anything else is the hidden default verb that
// archives one message (the dispatcher descends to the default child
// when the next argument is not a child's name).
type messageArchiveCmd struct {
	Trim messageTrimCmd `cmd:"" help:"delete old files from the archive"`
	Move messageMoveCmd `cmd:"" default:"withargs" hidden:"" help:"move a message to the archive"`
}

type messageMoveCmd struct {
	WithAttachments bool     `name:"with-attachments" help:"also archive the message's attachments"`
	Args            []string `arg:"" optional:"" help:"[<identity>] <filename>"`
}

func (c *messageMoveCmd) help(a *app) string {
	return named(`usage: {NAME} message archive [<identity>] <filename> [--with-attachments]
       {NAME} message archive trim [<identity>] [--older-than DURATION] [--keep-last N] [--dry-run] [--with-attachments]
`, a.name)
}

func (c *messageMoveCmd) Run(a *app) error {
	agent, name, err := splitPositionals(c.Args)
	if err != nil {
		return err
	}
	id, err := a.resolve(agent, layout.Strict)
	if err != nil {
		return err
	}
	if !message.IsDeliverable(name) {
		return sterr.InvalidName(name)
	}
	t, err := a.writableTree()
	if err != nil {
		return err
	}
	defer t.Close()
	res, err := inbox.ArchiveMessage(t, id, name, c.WithAttachments)
	if err != nil {
		return err
	}
	fmt.Fprintln(a.stderr, res.Outcome.Message())
	if n := len(res.Attachments); n > 0 {
		fmt.Fprintf(a.stderr, "# also archived %d %s\n", n, pluralWord(n, "attachment", "attachments"))
		for _, att := range res.Attachments {
			fmt.Fprintf(a.stderr, "  %s: %s\n", att.Name, att.Outcome.Message())
		}
	}
	return nil
}
