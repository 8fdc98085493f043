package main

import (
	"fmt"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

type messageSendCmd struct {
	Message   *string `short:"m" missing:"%s requires a value" help:"the body (else stdin)"`
	From      string  `help:"sender (default $ST_AGENT)"`
	Subject   string  `help:"subject"`
	InReplyTo string  `name:"in-reply-to" help:"filename this replies to"`
	Tags      string  `help:"comma-separated tags"`
	Priority  string  `predict:"low,normal,high" help:"low, normal or high"`
	To        *string `arg:"" optional:"" help:"recipient"`
}

func (c *messageSendCmd) help(a *app) string {
	return named(`usage: {NAME} message send <to> [-m <body> | --message <body>]
                            [--from ID] [--subject S] [--in-reply-to F]
                            [--tags T,T,...] [--priority low|normal|high]

  Body source: pass `+"`-m <body>`"+` for inline (recommended for scripts
  and agents — stdin is never read), or omit `+"`-m`"+` and pipe the body
  via stdin (e.g. `+"`echo hi | {NAME} message send bob`"+`). With no `+"`-m`"+`
  and no piped stdin, the command errors instead of blocking; a piped
  stdin that never closes times out ($ST_STDIN_TIMEOUT_MS, default 10s).

  Message economy: each send wakes the recipient's agent loop (a full
  turn) — send what the work needs (blocker / question / decision /
  closure), batch related points, skip pure acks. Would it change what
  they do? If not, don't send it. For bulk content (logs, diffs, long
  output) write a file and send the PATH — a message is a pointer, not
  a container.
`, a.name)
}

func (c *messageSendCmd) Run(a *app) error {
	if c.To == nil {
		return sterr.Msg("<to> is required")
	}
	body, err := a.readBody(c.Message)
	if err != nil {
		return err
	}
	m := message.Message{Subject: c.Subject, InReplyTo: c.InReplyTo, Tags: message.SplitTags(c.Tags), Priority: c.Priority, Body: body}
	name, err := a.send(*c.To, c.From, m)
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
// environment's agent) to to, in upstream's order of checks.
func (a *app) send(to, from string, m message.Message) (string, error) {
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
	return inbox.Send(t, to, m, a.now())
}
