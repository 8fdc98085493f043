package hooks

import (
	"os"
	"time"

	"github.com/smalltalk-go/st/events"
)

// recordsContext says whether event's line records how full the context
// is: after each tool call, at the end of a turn and before a
// compaction, so the dashboard can show the fill without reading
// transcripts itself; and at the next prompt and the session's end, which
// catch a reply a Stop did not see written (NoteContext).
func recordsContext(event string) bool {
	switch event {
	case "PostToolUse", "Stop", "PreCompact", "UserPromptSubmit", "SessionEnd":
		return true
	}
	return false
}

// NoteContext sets ev's context fill and model from the end of p's
// transcript (scanTranscriptTail, at most TranscriptTail bytes): a Claude
// Code transcript's last main-thread assistant turn, or a Codex rollout's
// last token_count record with the window Codex gives the model
// (codex_rollout.go; the model is the payload's). A transcript is one
// client's, so the first read that finds either finds what the whole
// bound would. It leaves ev alone when the event does not record a fill
// or the transcript does not tell, and returns the fill of the Claude
// Code turn it read, which a prompt's reminder weighs (ok is false when
// it read none).
//
// Claude Code writes a turn's last reply to the transcript while it runs
// Stop, so a Stop often finds the reply before it there (8 of 10 real
// runs did). Waiting for the client would hold every turn's end, so such
// a Stop records no fill, only the transcript's path: the dashboard reads
// the reply there once it is written (PendingFill), and the next event
// that records a fill (a prompt, the session's end) brings it up to date.
func NoteContext(ev *events.Event, p *Payload) (replyTokens int64, ok bool) {
	if !recordsContext(ev.Event) || p.TranscriptPath == "" {
		return 0, false
	}
	var model, text string
	var window int64
	var codex bool
	_ = scanTranscript(p.TranscriptPath, TranscriptTail, func(tail []byte) bool {
		if replyTokens, model, text, ok = lastReply(tail); ok {
			return true
		}
		replyTokens, window, codex = CodexContextUsage(tail)
		return codex
	}) // unreadable: nothing to note
	switch {
	case codex:
		ev.CtxTokens, ev.CtxWindow, ev.Model = replyTokens, window, events.Cap(p.Model, 80)
		return 0, false
	case !ok:
		return 0, false
	case ev.Event == "Stop" && p.LastAssistantMessage != "" && !sameReply(text, p.LastAssistantMessage):
		ev.Transcript = p.TranscriptPath
	default:
		ev.CtxTokens, ev.Model = replyTokens, events.Cap(model, 80)
	}
	return replyTokens, true
}

// PendingFill reads the fill a Stop left to its reader (ev.Transcript):
// the transcript's last reply, once the transcript has been written
// since the Stop (until then the last reply is the one before, and ok is
// false: ask again later).
func PendingFill(path string, stop time.Time) (tokens int64, model string, ok bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.ModTime().After(stop) {
		return 0, "", false
	}
	_ = scanTranscript(path, TranscriptTail, func(tail []byte) bool {
		tokens, model, ok = ContextUsage(tail)
		return ok
	}) // unreadable: no fill
	return tokens, events.Cap(model, 80), ok
}

// scanTranscript reads a transcript's end (a test sees each read).
var scanTranscript = scanTranscriptTail
