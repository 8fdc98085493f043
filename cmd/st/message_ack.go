package main

import (
	"fmt"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

type messageAckCmd struct {
	Filename *string `arg:"" optional:"" form:"<filename>" predict:"@message" help:"the message to acknowledge, in your inbox or archive"`
}

// Help is ack's paragraph.
func (messageAckCmd) Help() string {
	return `Acknowledge a message sent with --ack-required: st records it as
$ST_ROOT/<you>/acks/<filename>, where the sender (and st message ls --unacked)
sees it. Acknowledging twice changes nothing.`
}

func (messageAckCmd) examples() []example {
	return []example{
		{"acknowledge a message", "st message ack 1764650000000-a1b2c3.md"},
		{"what still waits for your acknowledgement", "st message ls --unacked"},
	}
}

func (c *messageAckCmd) Run(a *app) error {
	if c.Filename == nil {
		return sterr.Msg("%s message ack requires a <filename>", a.name)
	}
	id, t, err := a.openAgentWritable("", layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	already, err := inbox.Ack(t, id, *c.Filename, a.now())
	if err != nil {
		return err
	}
	word := "acknowledged"
	if already {
		word = "already acknowledged"
	}
	_, err = fmt.Fprintf(a.stdout, "%s %s\n", word, *c.Filename)
	return err
}
