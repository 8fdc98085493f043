package mcp

import (
	"errors"
	"io/fs"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

type lsIn struct {
	Identity   *string `json:"identity,omitempty" jsonschema:"Whose folder to list. Default: you (the server's agent, $ST_AGENT)."`
	Archive    *bool   `json:"archive,omitempty" jsonschema:"true lists archive/ (messages already handled) instead of inbox/. Default false."`
	Since      *int64  `json:"since,omitempty" jsonschema:"Only messages sent at or after this time, in unix milliseconds (a file st did not name counts from its modification time)."`
	FromFilter *string `json:"fromFilter,omitempty" jsonschema:"Only messages whose sender is exactly this agent; the value outside keeps the .md files that were dropped in by hand."`
}

type lsOut struct {
	Matches  []string `json:"matches" jsonschema:"The filenames in name order, which is oldest first for st's <unix-ms>-<rand6>.md names."`
	Archive  bool     `json:"archive" jsonschema:"true when archive/ was listed, false for inbox/."`
	Identity string   `json:"identity" jsonschema:"The agent whose folder was listed."`
}

type readIn struct {
	Filename    string  `json:"filename" jsonschema:"The filename as st_msg_ls lists it: <unix-ms>-<rand6>.md, or the name of a .md file dropped in by hand."`
	Identity    *string `json:"identity,omitempty" jsonschema:"Whose folders to look in. Default: you (the server's agent, $ST_AGENT)."`
	FromArchive *bool   `json:"fromArchive,omitempty" jsonschema:"true looks in archive/ before inbox/. Default false: inbox/ first. Both are searched either way."`
}

// located is a message with where it was found: st_msg_read's result and
// one entry of st_msg_thread's.
type located struct {
	Filename string           `json:"filename" jsonschema:"The message's filename."`
	Identity string           `json:"identity" jsonschema:"The agent whose folder holds it."`
	Folder   string           `json:"folder" jsonschema:"Where it was found: inbox (not handled yet) or archive."`
	Message  inbox.Projection `json:"message" jsonschema:"The parsed message. Keys that the message does not set are left out."`
}

type archiveIn struct {
	Filename string  `json:"filename" jsonschema:"The filename as st_msg_ls lists it: <unix-ms>-<rand6>.md, or the name of a .md file dropped in by hand."`
	Identity *string `json:"identity,omitempty" jsonschema:"Whose inbox to archive from. Default: you (the server's agent, $ST_AGENT)."`
}

type archiveOut struct {
	Filename string `json:"filename" jsonschema:"The message's filename."`
	Identity string `json:"identity" jsonschema:"The agent whose message it is."`
	Outcome  string `json:"outcome" jsonschema:"moved: this call moved it from inbox/ to archive/. idempotent: it was archived already (an identical copy left in inbox/ is removed)."`
}

type threadIn struct {
	Filename string  `json:"filename" jsonschema:"Any message of the conversation, by its filename <unix-ms>-<rand6>.md."`
	Identity *string `json:"identity,omitempty" jsonschema:"An agent of this store; checked, but the search covers every agent's folders anyway. Default: you (the server's agent, $ST_AGENT)."`
	Tree     *bool   `json:"tree,omitempty" jsonschema:"true returns conversation order: the messages it answers from the first one down, then its replies depth-first, each after the one it answers. Default false: oldest first."`
}

type threadOut struct {
	Messages []located `json:"messages" jsonschema:"The conversation's messages, each parsed, with the agent and folder it was found in."`
}

type replyIn struct {
	Thread  string  `json:"thread" jsonschema:"Filename of the message you answer (<unix-ms>-<rand6>.md), for example the messageFilename of a channel notification."`
	Body    string  `json:"body" jsonschema:"Your reply, in Markdown. Must not be empty."`
	Subject *string `json:"subject,omitempty" jsonschema:"Subject of the reply. Default: re: followed by the original's subject, or none when it had none."`
}

type replyOut struct {
	Filename string `json:"filename" jsonschema:"The reply's filename, <unix-ms>-<rand6>.md, in the recipient's inbox."`
	Identity string `json:"identity" jsonschema:"The recipient: the sender of the message you answered."`
}

func (s *server) addMessageTools() {
	add(s, tool[lsIn, lsOut]{
		name:  "st_msg_ls",
		title: "List the messages in an inbox or archive",
		description: "List the message filenames in an agent's inbox, or its archive with archive=true (the CLI's `st message ls`). " +
			"The inbox holds what is still to handle; the archive what was handled. st names messages <unix-ms>-<rand6>.md, so the list is oldest first. " +
			"Only names are returned: read each with st_msg_read. Changes nothing. " +
			"Errors: INVALID_IDENTITY (identity or fromFilter is not a valid name), IDENTITY_NOT_HOSTED (no such agent in this store).",
		effect: reads,
		run: func(in lsIn) (string, lsOut, error) {
			var f inbox.Filter
			if in.FromFilter != nil {
				if err := layout.CheckAgent(*in.FromFilter); err != nil {
					return "", lsOut{}, err
				}
				f.From = *in.FromFilter
			}
			if in.Since != nil {
				since := float64(*in.Since)
				f.Since = &since
			}
			id, err := s.hosted(in.Identity, layout.Lenient)
			if err != nil {
				return "", lsOut{}, err
			}
			out := lsOut{Archive: in.Archive != nil && *in.Archive, Identity: id, Matches: []string{}}
			folder := inbox.Inbox
			if out.Archive {
				folder = inbox.Archive
			}
			t := s.readTree()
			defer closeTree(t)
			if t != nil {
				names, err := inbox.Select(t, id, folder, f)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return "", lsOut{}, err
				}
				if names != nil {
					out.Matches = names
				}
			}
			return plural(len(out.Matches), "message in "+folder, "messages in "+folder), out, nil
		},
	})
	add(s, tool[readIn, located]{
		name:  "st_msg_read",
		title: "Read one message",
		description: "Return one message parsed into sender, body and, when set, subject, inReplyTo, tags and priority, with the folder it was found in (the CLI's `st message read`). " +
			"Looks in the agent's inbox, then its archive. Reading does not archive: call st_msg_archive when the message is handled. " +
			"A .md file dropped in by hand reads with from set to outside. " +
			"Errors: INVALID_FILENAME, MESSAGE_NOT_FOUND (in neither folder: check the name with st_msg_ls), " +
			"MESSAGE_TOO_LARGE (the file exceeds ST_MAX_MESSAGE_BYTES, 4 MiB by default: read it from disk instead), " +
			"INVALID_IDENTITY (a bad identity, or the file names an invalid sender), IDENTITY_NOT_HOSTED.",
		effect: reads,
		run: func(in readIn) (string, located, error) {
			id, err := s.agent(in.Identity)
			if err != nil {
				return "", located{}, err
			}
			if !message.IsDeliverable(in.Filename) {
				return "", located{}, sterr.InvalidName(in.Filename)
			}
			if err := layout.Apply(s.cfg.Root, id, layout.Lenient); err != nil {
				return "", located{}, err
			}
			t, err := fsutil.Open(s.cfg.Root)
			if err != nil {
				return "", located{}, sterr.NotFound(id, in.Filename)
			}
			defer t.Close()
			where, data, err := inbox.ReadWithin(t, id, in.Filename, in.FromArchive != nil && *in.FromArchive, s.cfg.MaxMessageBytes)
			if err != nil {
				return "", located{}, err
			}
			m, err := project(where.Name, inbox.Text(data))
			if err != nil {
				return "", located{}, err
			}
			out := located{Filename: where.Name, Identity: where.ID, Folder: where.Folder, Message: m}
			return out.Folder + "/" + out.Identity + "/" + out.Filename, out, nil
		},
	})
	add(s, tool[archiveIn, archiveOut]{
		name:  "st_msg_archive",
		title: "Archive a handled message",
		description: "Move a message from the agent's inbox to its archive once it is handled (the CLI's `st message archive`); it stays readable there. " +
			"Safe to repeat: archiving an archived message succeeds with outcome idempotent. " +
			"An archive copy is never replaced: when the inbox and archive hold different files of that name, the call fails with ARCHIVE_CONFLICT and changes nothing (compare the two files before deciding). " +
			"Other errors: INVALID_FILENAME, MESSAGE_NOT_FOUND (in neither folder), INVALID_IDENTITY, IDENTITY_NOT_HOSTED.",
		// Moves the message to the archive, whose copy is never replaced:
		// nothing is lost, and archiving again changes nothing.
		effect: effect{idempotent: true},
		run: func(in archiveIn) (string, archiveOut, error) {
			if !message.IsDeliverable(in.Filename) {
				return "", archiveOut{}, sterr.InvalidName(in.Filename)
			}
			id, err := s.hosted(in.Identity, layout.Strict)
			if err != nil {
				return "", archiveOut{}, err
			}
			t, err := s.tree()
			if err != nil {
				return "", archiveOut{}, err
			}
			defer t.Close()
			_, inboxErr := t.Stat(id + "/" + inbox.Inbox + "/" + in.Filename)
			_, archiveErr := t.Stat(id + "/" + inbox.Archive + "/" + in.Filename)
			if _, err := inbox.ArchiveMessage(t, id, in.Filename, false); err != nil {
				return "", archiveOut{}, err
			}
			out := archiveOut{Filename: in.Filename, Identity: id, Outcome: "idempotent"}
			if inboxErr == nil && archiveErr != nil {
				out.Outcome = "moved"
				return "archived: " + id + "/" + in.Filename, out, nil
			}
			return "archived (idempotent): " + id + "/" + in.Filename, out, nil
		},
	})
	add(s, tool[threadIn, threadOut]{
		name:  "st_msg_thread",
		title: "Show a whole conversation",
		description: "Collect the conversation a message belongs to (the CLI's `st message thread`): the messages it answers, back to the first one, and every reply to it, direct or indirect, " +
			"found in every agent's inbox and archive in this store. Each comes parsed, with the agent and folder it was found in. " +
			"Oldest first by default; tree=true gives conversation order. Changes nothing. " +
			"Errors: INVALID_FILENAME (give a <unix-ms>-<rand6>.md name), MESSAGE_NOT_FOUND, " +
			"MESSAGE_TOO_LARGE (a message exceeds ST_MAX_MESSAGE_BYTES, 4 MiB by default), INVALID_IDENTITY (a message names an invalid sender).",
		effect: reads,
		run: func(in threadIn) (string, threadOut, error) {
			if !message.IsCanonical(in.Filename) {
				return "", threadOut{}, sterr.InvalidName(in.Filename)
			}
			if _, err := s.hosted(in.Identity, layout.Lenient); err != nil {
				return "", threadOut{}, err
			}
			t, err := fsutil.Open(s.cfg.Root)
			if err != nil {
				return "", threadOut{}, sterr.NotFound("", in.Filename)
			}
			defer t.Close()
			lines, err := inbox.Thread(t, in.Filename, in.Tree != nil && *in.Tree)
			if err != nil {
				return "", threadOut{}, err
			}
			out := threadOut{Messages: []located{}}
			for _, l := range lines {
				data, err := inbox.ReadFile(t, l.Where.Path(), s.cfg.MaxMessageBytes)
				if err != nil {
					return "", threadOut{}, err
				}
				m, err := project(l.Name, inbox.Text(data))
				if err != nil {
					return "", threadOut{}, err
				}
				out.Messages = append(out.Messages, located{Filename: l.Name, Identity: l.Where.ID, Folder: l.Where.Folder, Message: m})
			}
			return plural(len(out.Messages), "message in thread", "messages in thread"), out, nil
		},
	})
}

// project parses a message for the MCP read tools, which are stricter
// than the CLI: a non-empty from must be a valid agent and a non-empty
// in-reply-to a canonical name; an outside file reads as from "outside".
func project(name, text string) (inbox.Projection, error) {
	p := inbox.Project(name, text)
	if message.IsOutside(name) {
		p.From = "outside"
		return p, nil
	}
	if p.From != "" {
		if err := layout.CheckAgent(p.From); err != nil {
			return inbox.Projection{}, err
		}
	}
	if p.InReplyTo != "" && !message.IsCanonical(p.InReplyTo) {
		return inbox.Projection{}, sterr.InvalidName(p.InReplyTo)
	}
	return p, nil
}

func (s *server) addReply() {
	add(s, tool[replyIn, replyOut]{
		name:  "st_msg_reply",
		title: "Reply to a message",
		description: "Answer a message (the CLI's `st message reply`): the reply goes from you (the server's agent) to the original's sender, marked as answering it so that it joins the conversation, " +
			"with the subject re: <original subject> unless you give one. " +
			"The original is looked up in your inbox, your archive, then other agents' archives. Every call sends one more message. " +
			"Returns the reply's filename and recipient. " +
			"Errors: INVALID_FILENAME, EMPTY_BODY, MESSAGE_NOT_FOUND, INVALID_IDENTITY (the original's sender is not a valid name: use st_msg_send), " +
			"MESSAGE_TOO_LARGE (the reply would exceed ST_MAX_MESSAGE_BYTES, 4 MiB by default).",
		// Like st_msg_send: a new message per call.
		effect: effect{},
		run: func(in replyIn) (string, replyOut, error) {
			if !message.IsCanonical(in.Thread) {
				return "", replyOut{}, sterr.InvalidName(in.Thread)
			}
			if in.Body == "" {
				return "", replyOut{}, inbox.ErrEmptyBody
			}
			t := s.readTree()
			orig, err := inbox.FindForReply(t, s.cfg.Agent, in.Thread)
			closeTree(t)
			if err != nil {
				return "", replyOut{}, err
			}
			m := message.Message{InReplyTo: in.Thread, Body: []byte(in.Body)}
			m.Subject = inbox.ReplySubject(orig.Subject)
			if in.Subject != nil {
				m.Subject = *in.Subject
			}
			fn, err := s.send(orig.From, s.cfg.Agent, m)
			if err != nil {
				return "", replyOut{}, err
			}
			return "replied: " + orig.From + "/" + fn, replyOut{Filename: fn, Identity: orig.From}, nil
		},
	})
}
