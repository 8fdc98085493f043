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
	Trim messageTrimCmd `cmd:"" reads:"ST_ROOT ST_AGENT" help:"delete old files from the archive"`
	Move messageMoveCmd `cmd:"" default:"withargs" hidden:"" reads:"ST_ROOT ST_AGENT" help:"move a handled message from the inbox to the archive"`
}

type messageMoveCmd struct {
	WithAttachments bool     `name:"with-attachments" help:"also move the message's attachments"`
	Args            []string `arg:"" optional:"" form:"[<identity>] <filename>" predict:"@agent-message" agent:"" help:"whose inbox (default: $ST_AGENT) and the message's filename"`
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

// Help is message archive's paragraph.
func (messageArchiveCmd) Help() string {
	return `Archive a message once you have acted on it: the move is the record that it
was handled, and sync carries it to every copy of the store, so an archived
message never comes back. Archiving one that is already archived is not an
error. archive trim deletes old archived files for good.`
}

func (messageMoveCmd) examples() []example {
	return []example{
		{"archive a message you have handled", "st message archive 1795966371663-k3x9qa.md"},
		{"archive one of bob's messages with its attachments", "st message archive bob 1795966371663-k3x9qa.md --with-attachments"},
	}
}
