package main

import (
	"errors"
	"fmt"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

type messageReplyCmd struct {
	Message *string `short:"m" missing:"%s requires a value" help:"the body (else stdin)"`
	Subject *string `help:"subject (default: re: <original subject>)"`
	From    string  `help:"sender (default $ST_AGENT)"`
	Thread  *string `arg:"" optional:"" help:"the message to reply to"`
}

func (c *messageReplyCmd) help(a *app) string {
	return named("usage: {NAME} message reply <thread-filename> [-m <body> | --message <body>]\n"+
		"                                     [--subject S] [--from ID]\n\n"+
		"  Reply to <thread-filename>. Recipient is derived from the thread's\n"+
		"  `from:` field; default subject is `re: <original-subject>` (or omitted\n"+
		"  if the original had no subject). Body source: pass `-m <body>` for\n"+
		"  inline, or omit and pipe the body via stdin (e.g. `echo ok | {NAME} message reply <fn>`).\n"+
		"  Don't do both.\n", a.name)
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
	switch {
	case c.Subject != nil:
		m.Subject = *c.Subject
	case orig.Subject != "":
		m.Subject = "re: " + orig.Subject
	}
	name, err := a.send(orig.From, c.From, m)
	if err != nil {
		return err
	}
	fmt.Fprintln(a.stdout, name)
	return nil
}
