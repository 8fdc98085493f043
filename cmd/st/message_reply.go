package main

import (
	"errors"
	"fmt"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

type messageReplyCmd struct {
	Message *string `short:"m" placeholder:"BODY" missing:"%s requires a value" help:"the body; - or no -m reads it from stdin"`
	Subject *string `placeholder:"S" help:"the subject (default: re: and the original's subject)"`
	From    string  `placeholder:"ID" predict:"@agent" agent:"" help:"the sender (default: $ST_AGENT)"`
	Thread  *string `arg:"" optional:"" form:"<thread-filename>" predict:"@message" help:"the filename of the message to answer"`
}

// New, not Msg: no fmt.Sprintf at start-up.
var errReplySelf = sterr.New("", "<self identity> required — set $ST_AGENT or pass --from <ID>", nil)

func (c *messageReplyCmd) Run(a *app) error {
	if c.Thread == nil {
		return sterr.Msg("<thread-filename> is required")
	}
	body, err := a.readBody(c.Message)
	if err != nil {
		return err
	}
	// The lookup runs as the environment's agent; without one, as --from
	// (★14: upstream demands the environment even with --from).
	self, err := a.env.AgentName()
	if errors.Is(err, sterr.ErrIdentityRequired) {
		if c.From == "" {
			return errReplySelf
		}
		self = c.From
	}
	if !message.IsCanonical(*c.Thread) {
		return sterr.InvalidName(*c.Thread)
	}
	t := a.tree()
	defer t.Close()
	orig, err := inbox.FindForReply(t, self, *c.Thread)
	if err != nil {
		return err
	}
	m := message.Message{InReplyTo: *c.Thread, Body: body}
	m.Subject = inbox.ReplySubject(orig.Subject)
	if c.Subject != nil {
		m.Subject = *c.Subject
	}
	name, err := a.send(orig.From, c.From, m, true) // the sender of a real message, not typed
	if err != nil {
		return err
	}
	fmt.Fprintln(a.stdout, name)
	return nil
}

// Help is message reply's paragraph.
func (messageReplyCmd) Help() string {
	return `The recipient is the original's from: field, and in-reply-to links the
answer into the thread. The original is looked up in your inbox and archive
first, then in other agents' archives. The body comes from -m or stdin, as
for message send; the new filename is printed on stdout.`
}

func (messageReplyCmd) examples() []example {
	return []example{
		{"answer a message in one line", "st message reply 1795966371663-k3x9qa.md -m 'done, merged'"},
		{"answer with a piped body and your own subject", "st message reply 1795966371663-k3x9qa.md --subject 'review notes' < notes.md"},
	}
}
