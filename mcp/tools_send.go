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
	To        string   `json:"to" jsonschema:"Recipient agent name: lowercase letters, digits, dots and hyphens (for example bob). st_agents lists the agents."`
	Body      string   `json:"body" jsonschema:"The message text, in Markdown. Must not be empty."`
	From      *string  `json:"from,omitempty" jsonschema:"Sender agent name. Default: you (the server's agent, $ST_AGENT). It must be an agent of this store."`
	Subject   *string  `json:"subject,omitempty" jsonschema:"A one-line subject. Default: none."`
	InReplyTo *string  `json:"inReplyTo,omitempty" jsonschema:"Filename of the message this one answers (<unix-ms>-<rand6>.md), which puts it in that conversation."`
	Tags      []string `json:"tags,omitempty" jsonschema:"Labels for the message, one per item; each is trimmed and empty ones are dropped (commas do not split an item)."`
	Priority  *string  `json:"priority,omitempty" jsonschema:"How urgent it is: low, normal or high. Default: none given."`
}

type sentOut struct {
	Filename string `json:"filename" jsonschema:"The new message's filename, <unix-ms>-<rand6>.md: the name to use as inReplyTo or with st_msg_thread."`
	Identity string `json:"identity" jsonschema:"The recipient, whose inbox now holds the message."`
}

func (s *server) addSend() {
	add(s, tool[sendIn, sentOut]{
		name:  "st_msg_send",
		title: "Send a message to another agent",
		description: "Deliver a new message to an agent's inbox (the CLI's `st message send`). The file is written at once; `st sync` carries it to other machines. " +
			"Every call sends one more message, so do not repeat a call that succeeded. " +
			"A recipient with no folder yet gets one, and the summary then warns that the name may be a typo, naming the closest existing agent. " +
			"Returns the new filename and the recipient. " +
			"Errors: INVALID_IDENTITY (to or from is not a valid name), IDENTITY_NOT_HOSTED (from is not an agent of this store), " +
			"INVALID_FILENAME (inReplyTo), EMPTY_BODY, MESSAGE_TOO_LARGE (the message file would exceed ST_MAX_MESSAGE_BYTES, 4 MiB by default: " +
			"send a shorter body, for example the path of a file holding the rest).",
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
