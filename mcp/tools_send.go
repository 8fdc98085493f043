package mcp

import (
	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

type sendIn struct {
	To        string   `json:"to" jsonschema:"Recipient identity (LAYOUT-004 grammar)"`
	Body      string   `json:"body" jsonschema:"Message body (markdown). Required."`
	From      *string  `json:"from,omitempty" jsonschema:"Sender identity. Defaults to $ST_AGENT."`
	Subject   *string  `json:"subject,omitempty" jsonschema:"Optional subject line."`
	InReplyTo *string  `json:"inReplyTo,omitempty" jsonschema:"Filename of the message being replied to (LAYOUT filename grammar)."`
	Tags      []string `json:"tags,omitempty" jsonschema:"Optional list of tag strings."`
	Priority  *string  `json:"priority,omitempty" jsonschema:"Optional priority hint."`
}

type sentOut struct {
	Filename string `json:"filename" jsonschema:"The generated <unix-ms>-<rand6>.md filename."`
	Identity string `json:"identity" jsonschema:"The recipient identity the file was written under."`
}

func (s *server) addSend() {
	add(s, tool[sendIn, sentOut]{
		name:        "st_msg_send",
		title:       "Send a smalltalk message",
		description: "Equivalent to `st message send`. Write a new message to <to>/inbox/. The act of writing IS the send; sync moves the file across machines later. A recipient with no folder yet is created, and the result adds a note naming the closest existing agent (a likely typo).",
		// A new file in the recipient's inbox per call: nothing is
		// replaced, and a repeat sends the message again.
		effect: effect{},
		run: func(in sendIn) (string, sentOut, error) {
			if err := layout.CheckAgent(in.To); err != nil {
				return "", sentOut{}, err
			}
			from, err := s.agent(in.From)
			if err != nil {
				return "", sentOut{}, err
			}
			if irt := str(in.InReplyTo); irt != "" && !message.IsCanonical(irt) {
				return "", sentOut{}, sterr.InvalidName(irt)
			}
			m := message.Message{
				Subject:   str(in.Subject),
				InReplyTo: str(in.InReplyTo),
				Tags:      trimTags(in.Tags),
				Priority:  str(in.Priority),
				Body:      []byte(in.Body),
			}
			fresh := s.isNewAgent(in.To)
			fn, err := s.send(in.To, from, m)
			if err != nil {
				return "", sentOut{}, err
			}
			sum := "sent: " + in.To + "/" + fn
			if fresh {
				sum += "\n" + s.newRecipientNote(in.To)
			}
			return sum, sentOut{Filename: fn, Identity: in.To}, nil
		},
	})
}

// send delivers m from the hosted agent from to the valid agent to, with
// the checks of every sending path.
func (s *server) send(to, from string, m message.Message) (string, error) {
	if err := layout.Apply(s.cfg.Root, from, layout.Strict); err != nil {
		return "", err
	}
	m.From = from
	if err := inbox.Check(m); err != nil {
		return "", err
	}
	if err := inbox.CheckSize(m, s.cfg.MaxMessageBytes); err != nil {
		return "", err
	}
	t, err := s.tree()
	if err != nil {
		return "", err
	}
	defer t.Close()
	name, err := inbox.Send(t, to, m, s.cfg.Now())
	if err == nil && from == s.cfg.Agent {
		s.sent.Store(true)
	}
	return name, err
}

// isNewAgent reports whether to has no folder in the store yet.
func (s *server) isNewAgent(to string) bool {
	t := s.readTree()
	if t == nil {
		return true
	}
	defer t.Close()
	return !t.IsDir(to)
}

// newRecipientNote is the CLI's note for a send that created to's folder
// (agents.NewRecipientNote): likely a typo, with the closest agent.
func (s *server) newRecipientNote(to string) string {
	t := s.readTree()
	if t == nil {
		return ""
	}
	defer t.Close()
	return agents.NewRecipientNote(t, to)
}

// trimTags trims each tag and drops empty ones; MCP tags are a list, so
// they are not split on commas.
func trimTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if t = jsstr.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
