package mcp

import (
	"fmt"
	"path/filepath"
	"strconv"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

type contextReadIn struct {
	Identity *string `json:"identity,omitempty" jsonschema:"Whose context/ folder to read from. Defaults to the server identity."`
	File     *string `json:"file,omitempty" jsonschema:"Which surface: 'now' (default) prints now.md; 'decisions' concatenates entries in context/decisions/ in filename-sort (= chronological) order; 'full' prints both under labeled headings."`
}

type contextReadOut struct {
	Identity string `json:"identity"`
	File     string `json:"file"`
	Text     string `json:"text"`
	Absent   bool   `json:"absent" jsonschema:"True when the requested file(s) don't exist yet. Distinguishes 'no prior context' from 'empty file' — the eval's restart-continuity control arm uses this."`
}

type contextWriteIn struct {
	Body     string  `json:"body" jsonschema:"The whole-file content for now.md. Rewritten atomically (tmp + rename) so a concurrent SessionStart hook never sees a partial file. Trailing newline is added if absent."`
	Identity *string `json:"identity,omitempty" jsonschema:"Whose context/now.md to rewrite. Defaults to the server identity."`
}

type contextWriteOut struct {
	Identity string `json:"identity"`
	Path     string `json:"path"`
	Bytes    int    `json:"bytes"`
}

type contextAppendIn struct {
	Decision  string  `json:"decision" jsonschema:"One-line decision. Multi-line reasoning belongs in a doc; this log stays scannable. Trailing period optional (we add one)."`
	Why       string  `json:"why" jsonschema:"One-line reason. The load-bearing part — this is what stops a restarted-you from re-litigating."`
	Timestamp *string "json:\"timestamp,omitempty\" jsonschema:\"Optional ISO timestamp override. Omit to stamp `new Date().toISOString()` at the moment of append.\""
	Identity  *string `json:"identity,omitempty" jsonschema:"Whose context/decisions/ folder to append to. Defaults to the server identity."`
}

type contextAppendOut struct {
	Identity string `json:"identity"`
	Path     string `json:"path" jsonschema:"Absolute path of the newly-written entry file: <st-root>/<identity>/context/decisions/<unix-ms>-<rand6>.md."`
	Filename string `json:"filename" jsonschema:"Basename of the entry file (LAYOUT-004 grammar: <unix-ms>-<rand6>.md)."`
	Line     string `json:"line" jsonschema:"The bulleted line stored in the file."`
}

func (s *server) addContextTools() {
	add(s, tool[contextReadIn, contextReadOut]{
		name:        "st_context_read",
		title:       "Read agent context/ working-state",
		description: "Equivalent to `st context read`. Return the per-agent durable working-state (brief-024, in-context-state leg of lossless-restart). Absent-able: missing files return { text: '', absent: true }.",
		effect:      reads,
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
					return "", contextReadOut{}, tooLarge("context/now.md", size, limit)
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
		name:        "st_context_write",
		title:       "Rewrite agent context/now.md",
		description: "Equivalent to `st context write`. Replace now.md with `body`. Whole-file rewrite discipline — v1 rejects edit-in-place because it's how staleness creeps in. Lazy-creates the context/ folder.",
		// Replaces now.md whole; the same body twice leaves the same file.
		effect: effect{destructive: true, idempotent: true},
		run: func(in contextWriteIn) (string, contextWriteOut, error) {
			id, err := s.hosted(in.Identity, layout.Strict)
			if err != nil {
				return "", contextWriteOut{}, err
			}
			if n := int64(len(in.Body)); n > s.cfg.MaxMessageBytes {
				return "", contextWriteOut{}, tooLarge("body", n, s.cfg.MaxMessageBytes)
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
		name:        "st_context_append",
		title:       "Append one decision to context/decisions/",
		description: "Equivalent to `st context append --decision <text> --why <text>`. Creates a new file `<unix-ms>-<rand6>.md` under `<st-root>/<identity>/context/decisions/` with one bulleted line. Append semantics = new file per entry — no rewriting an existing log, no clobbering on race. Lazy-creates the context/ + decisions/ folders.",
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
				return "", contextAppendOut{}, tooLarge("decision", n, s.cfg.MaxMessageBytes)
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

// tooLarge is the error for what (a file or an argument) of size bytes
// over the maximum message size limit.
func tooLarge(what string, size, limit int64) error {
	return sterr.New(sterr.MessageTooLarge,
		fmt.Sprintf("%s too large: %d bytes, more than the maximum of %d bytes (set ST_MAX_MESSAGE_BYTES to change it)", what, size, limit),
		map[string]any{"size": size, "limit": limit})
}
