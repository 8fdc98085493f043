package main

import (
	"fmt"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

type messageSendCmd struct {
	Message   *string `short:"m" placeholder:"BODY" missing:"%s requires a value" help:"the body; - or no -m reads it from stdin"`
	From      string  `placeholder:"ID" predict:"@agent" agent:"" help:"the sender (default: $ST_AGENT)"`
	Subject   string  `placeholder:"S" help:"a one-line subject (default: none)"`
	InReplyTo string  `name:"in-reply-to" placeholder:"F" predict:"@message" help:"the filename of the message this answers (default: none)"`
	Tags      string  `placeholder:"T,T" help:"comma-separated tags (default: none)"`
	Priority  string  `predict:"low,normal,high" help:"the priority (default: none, read as normal)"`
	Quiet     bool    `short:"q" help:"do not warn when the recipient has no folder yet"`
	AckReq    bool    `name:"ack-required" help:"ask the recipient to acknowledge it (st message ack); until then it shows in their st message ls --unacked"`
	To        *string `arg:"" optional:"" form:"<to>" predict:"@agent" help:"the recipient agent; a name without a folder is created"`
}

func (c *messageSendCmd) Run(a *app) error {
	if c.To == nil {
		return sterr.Msg("<to> is required")
	}
	body, err := a.readBody(c.Message)
	if err != nil {
		return err
	}
	m := message.Message{Subject: c.Subject, InReplyTo: c.InReplyTo, Tags: message.SplitTags(c.Tags), Priority: c.Priority, AckRequired: c.AckReq, Body: body}
	name, err := a.send(*c.To, c.From, m, c.Quiet)
	if err != nil {
		if name != "" { // linked, but the folder fsync failed
			return fmt.Errorf("%w (%s may have been delivered)", err, name)
		}
		return err
	}
	// The printed name is the acknowledgement: failing to print it fails.
	_, err = fmt.Fprintln(a.stdout, name)
	return err
}

// send validates and delivers m from the explicit sender (or the
// environment's agent) to to, in upstream's order of checks. A recipient
// without a folder still gets the message, with a note on stderr unless
// quiet (likely a typo: it names the closest existing agent).
func (a *app) send(to, from string, m message.Message, quiet bool) (string, error) {
	if to == "" {
		return "", sterr.Msg("<to> is required")
	}
	if err := layout.CheckAgent(to); err != nil {
		return "", err
	}
	sender, err := a.resolve(from, layout.Strict)
	if err != nil {
		return "", err
	}
	m.From = sender
	if err := inbox.Check(m); err != nil {
		return "", err
	}
	if err := inbox.CheckSize(m, a.env.MaxMessageBytes()); err != nil {
		return "", err
	}
	t, err := a.writableTree()
	if err != nil {
		return "", err
	}
	defer t.Close()
	fresh := !quiet && !t.IsDir(to)
	name, err := inbox.Send(t, to, m, a.now())
	if err == nil {
		a.markHome(sender)
	}
	if err == nil && fresh {
		fmt.Fprintf(a.stderr, "%s: %s\n", a.name, agents.NewRecipientNote(t, to))
	}
	return name, err
}

// Help is message send's paragraph.
func (messageSendCmd) Help() string {
	return `The body comes from -m, or from stdin when -m is absent or is -. A terminal
on stdin is refused rather than waited on, and a pipe that never closes
times out. The new filename is printed on stdout. Sending to a name that
has no folder creates it (scripts rely on this) and prints a note on
stderr naming the closest existing agent; --quiet drops the note.

Every message wakes the recipient for a full turn: send blockers,
questions, decisions and results, batch related points, and put long
output in a file and send its path.`
}

func (messageSendCmd) examples() []example {
	return []example{
		{"send a one-line message", "st message send bob -m 'build is green'"},
		{"pipe a longer body with a subject and a high priority", "git log -5 --oneline | st message send bob --subject 'what landed' --priority high"},
		{"send as another agent, tagged", "st message send alice --from ci -m 'nightly failed' --tags ci,nightly"},
	}
}
