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
	Identity   *string `json:"identity,omitempty" jsonschema:"Whose inbox/archive to list. Defaults to $ST_AGENT."`
	Archive    *bool   `json:"archive,omitempty" jsonschema:"When true, list <identity>/archive/ instead of inbox/."`
	Since      *int64  `json:"since,omitempty" jsonschema:"Filter to filenames whose <unix-ms> prefix is >= this value."`
	FromFilter *string "json:\"fromFilter,omitempty\" jsonschema:\"Filter to messages whose `from:` frontmatter equals this identity.\""
}

type lsOut struct {
	Matches  []string `json:"matches" jsonschema:"Matching filenames in chronological order."`
	Archive  bool     `json:"archive" jsonschema:"Whether the listing was against archive/ (vs inbox/)."`
	Identity string   `json:"identity" jsonschema:"Resolved identity that was listed."`
}

type readIn struct {
	Filename    string  "json:\"filename\" jsonschema:\"Message filename (LAYOUT-004 grammar, or an off-format `.md` delivered as an 'outside' message). Required.\""
	Identity    *string `json:"identity,omitempty" jsonschema:"Whose folder to read from. Defaults to $ST_AGENT."`
	FromArchive *bool   `json:"fromArchive,omitempty" jsonschema:"When true, prefer archive/ first (auto-falls back to inbox)."`
}

// located is a message with where it was found: st_msg_read's result and
// one entry of st_msg_thread's.
type located struct {
	Filename string           `json:"filename"`
	Identity string           `json:"identity"`
	Folder   string           `json:"folder" jsonschema:"inbox or archive"`
	Message  inbox.Projection `json:"message"`
}

type archiveIn struct {
	Filename string  "json:\"filename\" jsonschema:\"Message filename (LAYOUT-004 grammar, or an off-format `.md` delivered as an 'outside' message). Required.\""
	Identity *string `json:"identity,omitempty" jsonschema:"Whose folder to archive within. Defaults to $ST_AGENT."`
}

type archiveOut struct {
	Filename string `json:"filename"`
	Identity string `json:"identity"`
	Outcome  string `json:"outcome" jsonschema:"'moved' = case-4 clean rename, 'idempotent' = already archived (case 0 or case 2 byte-identical twin)."`
}

type threadIn struct {
	Filename string  `json:"filename" jsonschema:"Seed filename (LAYOUT-004 grammar). Required."`
	Identity *string `json:"identity,omitempty" jsonschema:"Identity slot (mostly a validation hint — the walk is global). Defaults to $ST_AGENT."`
	Tree     *bool   `json:"tree,omitempty" jsonschema:"When true, return depth-indented hierarchical view (vs flat chronological default)."`
}

type threadOut struct {
	Messages []located `json:"messages"`
}

type replyIn struct {
	Thread  string  "json:\"thread\" jsonschema:\"Filename of the message you are replying to (LAYOUT-004 grammar). The recipient is derived from that message's `from:` field.\""
	Body    string  `json:"body" jsonschema:"Reply body. Must be non-empty."`
	Subject *string "json:\"subject,omitempty\" jsonschema:\"Optional subject. If omitted, derived as `re: <original-subject>` from the threaded message (or omitted entirely if the original had no subject).\""
}

type replyOut struct {
	Filename string `json:"filename" jsonschema:"The new <unix-ms>-<rand6>.md filename written into the recipient's inbox."`
	Identity string "json:\"identity\" jsonschema:\"Recipient identity (the original `from`).\""
}

func (s *server) addMessageTools() {
	add(s, tool[lsIn, lsOut]{
		name:        "st_msg_ls",
		title:       "List inbox or archive",
		description: "Equivalent to `st message ls`. List filenames in <identity>/inbox/ (or <identity>/archive/ with archive=true). Filterable by --since (filename ts) and fromFilter (frontmatter `from:`).",
		effect:      reads,
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
		name:        "st_msg_read",
		title:       "Read one smalltalk message",
		description: "Equivalent to `st message read`. Return the parsed message at <identity>/inbox/<filename> (or archive, with auto-fallback). identity defaults to $ST_AGENT.",
		effect:      reads,
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
		name:        "st_msg_archive",
		title:       "Archive a smalltalk message",
		description: "Equivalent to `st message archive`. Move <identity>/inbox/<filename> to <identity>/archive/<filename>. Idempotent on a byte-identical twin; refuses on divergent twin (ARCHIVE_CONFLICT).",
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
		name:        "st_msg_thread",
		title:       "Walk a smalltalk thread",
		description: "Equivalent to `st message thread`. Return every message reachable from <filename> via in-reply-to (both directions, cross-identity). Default = flat chronological; tree=true preserves the depth-indented hierarchy.",
		effect:      reads,
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
		name:        "st_msg_reply",
		title:       "Reply to a smalltalk message",
		description: "Channel-mode-only. Write a reply to <thread>'s sender. Equivalent to `st_msg_send` with `to` derived from the original's `from:` field, `inReplyTo: <thread>`, and a default `subject` of `re: <original-subject>`.",
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
			if in.Subject != nil {
				m.Subject = *in.Subject
			} else if orig.Subject != "" {
				m.Subject = "re: " + orig.Subject
			}
			fn, err := s.send(orig.From, s.cfg.Agent, m)
			if err != nil {
				return "", replyOut{}, err
			}
			return "replied: " + orig.From + "/" + fn, replyOut{Filename: fn, Identity: orig.From}, nil
		},
	})
}
