package mcp

import (
	"path/filepath"
	"strconv"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
)

type contextReadIn struct {
	Identity *string `json:"identity,omitempty" jsonschema:"Whose working state to read. Default: you (the server's agent, $ST_AGENT)."`
	File     *string `json:"file,omitempty" jsonschema:"What to read: now (the default) for now.md; decisions for the decision log, oldest entry first; full for both, under the headings # now.md and # decisions/."`
}

type contextReadOut struct {
	Identity string `json:"identity" jsonschema:"The agent whose state was read."`
	File     string `json:"file" jsonschema:"What was read: now, decisions or full."`
	Text     string `json:"text" jsonschema:"The content; empty when absent."`
	Absent   bool   `json:"absent" jsonschema:"true when nothing of what was asked has been saved yet, as opposed to a saved file that is empty."`
}

type contextWriteIn struct {
	Body     string  `json:"body" jsonschema:"The complete new content of now.md, in Markdown; it replaces the old content whole. A final newline is added when missing."`
	Identity *string `json:"identity,omitempty" jsonschema:"Whose now.md to replace. Default: you (the server's agent, $ST_AGENT)."`
}

type contextWriteOut struct {
	Identity string `json:"identity" jsonschema:"The agent whose now.md was written."`
	Path     string `json:"path" jsonschema:"The absolute path of now.md."`
	Bytes    int    `json:"bytes" jsonschema:"How many bytes were written, final newline included."`
}

type contextAppendIn struct {
	Decision  string  `json:"decision" jsonschema:"What was decided, on one line. A final period is optional."`
	Why       string  `json:"why" jsonschema:"Why, on one line: the reason a later session needs in order not to reopen the question. A final period is optional."`
	Timestamp *string `json:"timestamp,omitempty" jsonschema:"When it was decided, written into the line as given, for example 2026-12-02T10:00:00.000Z; when it parses as a date or time it also dates the file. Default: now (UTC, in that form)."`
	Identity  *string `json:"identity,omitempty" jsonschema:"Whose decision log to add to. Default: you (the server's agent, $ST_AGENT)."`
}

type contextAppendOut struct {
	Identity string `json:"identity" jsonschema:"The agent whose log got the entry."`
	Path     string `json:"path" jsonschema:"The new entry's absolute path, in the agent's context/decisions/ folder."`
	Filename string `json:"filename" jsonschema:"The new entry's filename, <unix-ms>-<rand6>.md."`
	Line     string `json:"line" jsonschema:"The line written: - <time> <decision>. why: <why>."`
}

func (s *server) addContextTools() {
	add(s, tool[contextReadIn, contextReadOut]{
		name:  "st_context_read",
		title: "Read saved working state",
		description: "Read an agent's saved working state, yours by default (the CLI's `st context read`): " +
			"now.md, the snapshot of the current task that st's session-start hook hands to the agent's next session; " +
			"the decision log (file=decisions); or both (file=full). " +
			"Nothing saved yet is not an error: the result then has absent=true and empty text. Changes nothing. " +
			"Errors: MESSAGE_TOO_LARGE (now.md exceeds ST_MAX_MESSAGE_BYTES, 4 MiB by default; with decisions or full, a file that big is shown as a bracketed note of its size instead), " +
			"INVALID_IDENTITY, IDENTITY_NOT_HOSTED.",
		effect: reads,
		run: func(in contextReadIn) (string, contextReadOut, error) {
			id, err := s.hosted(in.Identity, layout.Strict)
			if err != nil {
				return "", contextReadOut{}, err
			}
			t := s.readTree()
			defer closeTree(t)
			out := contextReadOut{Identity: id, File: "now"}
			if in.File != nil {
				out.File = *in.File
			}
			var ok bool
			limit := s.cfg.MaxMessageBytes
			note := func(size int64) string { return "[" + layout.TooLargeNote(size) + "]" }
			switch out.File {
			case "decisions":
				out.Text, ok = agentctx.DecisionsWithin(t, id, limit, note)
			case "full":
				out.Text, ok = agentctx.FullWithin(t, id, limit, note)
			default:
				var size int64
				if out.Text, size, ok = agentctx.ReadNowWithin(t, id, limit); size > 0 {
					return "", contextReadOut{}, layout.ErrTooLarge("context/now.md", size, limit)
				}
			}
			out.Absent = !ok
			if out.Absent {
				return "context/" + out.File + " absent for " + id, out, nil
			}
			return "context/" + out.File + " @ " + id + " (" + strconv.Itoa(len(out.Text)) + " bytes)", out, nil
		},
	})
	add(s, tool[contextWriteIn, contextWriteOut]{
		name:  "st_context_write",
		title: "Save working state (replace now.md)",
		description: "Replace an agent's now.md, yours by default, with body (the CLI's `st context write`). " +
			"Write the whole current picture every time (goal, progress, next steps, open questions), never a patch: there is no partial edit, and the last write wins. " +
			"The file is swapped in atomically, so a reader never sees half of it; the same body twice leaves the same file. " +
			"Returns the path and the bytes written. " +
			"Errors: MESSAGE_TOO_LARGE (body over ST_MAX_MESSAGE_BYTES, 4 MiB by default), INVALID_IDENTITY, IDENTITY_NOT_HOSTED.",
		// Replaces now.md whole; the same body twice leaves the same file.
		effect: effect{destructive: true, idempotent: true},
		run: func(in contextWriteIn) (string, contextWriteOut, error) {
			id, err := s.hosted(in.Identity, layout.Strict)
			if err != nil {
				return "", contextWriteOut{}, err
			}
			if n := int64(len(in.Body)); n > s.cfg.MaxMessageBytes {
				return "", contextWriteOut{}, layout.ErrTooLarge("body", n, s.cfg.MaxMessageBytes)
			}
			t, err := s.tree()
			if err != nil {
				return "", contextWriteOut{}, err
			}
			defer t.Close()
			n, err := agentctx.WriteNow(t, id, []byte(in.Body))
			if err != nil {
				return "", contextWriteOut{}, err
			}
			path := filepath.Join(s.cfg.Root, id, "context", "now.md")
			return "wrote " + strconv.Itoa(n) + " bytes to " + path, contextWriteOut{Identity: id, Path: path, Bytes: n}, nil
		},
	})
	add(s, tool[contextAppendIn, contextAppendOut]{
		name:  "st_context_append",
		title: "Log a decision and its reason",
		description: "Add one entry to an agent's decision log, yours by default (the CLI's `st context append --decision <text> --why <text>`). " +
			"Log choices a later session should not reopen, with the reason. " +
			"Each entry is its own new file in context/decisions/, so entries never overwrite one another and those made on several machines merge through st sync; " +
			"every call adds one, even when repeated. Returns the entry's path, filename and line. " +
			"Errors: INTERNAL_ERROR when decision or why is empty or spans several lines, " +
			"MESSAGE_TOO_LARGE (the two together exceed ST_MAX_MESSAGE_BYTES, 4 MiB by default), INVALID_IDENTITY, IDENTITY_NOT_HOSTED.",
		// A new decision file per call; nothing is replaced.
		effect: effect{},
		run: func(in contextAppendIn) (string, contextAppendOut, error) {
			id, err := s.hosted(in.Identity, layout.Strict)
			if err != nil {
				return "", contextAppendOut{}, err
			}
			if _, _, err := agentctx.CheckDecision(in.Decision, in.Why); err != nil {
				return "", contextAppendOut{}, err
			}
			if n := int64(len(in.Decision) + len(in.Why)); n > s.cfg.MaxMessageBytes {
				return "", contextAppendOut{}, layout.ErrTooLarge("decision", n, s.cfg.MaxMessageBytes)
			}
			t, err := s.tree()
			if err != nil {
				return "", contextAppendOut{}, err
			}
			defer t.Close()
			var e agentctx.Entry
			if stamp := str(in.Timestamp); stamp != "" {
				e, err = agentctx.AppendStamped(t, id, in.Decision, in.Why, stamp, s.cfg.Now())
			} else {
				e, err = agentctx.Append(t, id, in.Decision, in.Why, s.cfg.Now())
			}
			if err != nil {
				return "", contextAppendOut{}, err
			}
			return "appended: " + e.Filename, contextAppendOut{
				Identity: id,
				Path:     filepath.Join(s.cfg.Root, id, "context", "decisions", e.Filename),
				Filename: e.Filename,
				Line:     e.Line,
			}, nil
		},
	})
}
