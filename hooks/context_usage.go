package hooks

import (
	"os"
	"time"

	"github.com/smalltalk-go/st/events"
)

// contextEvents are the events whose line records how full the context
// is: after each tool call, at the end of a turn and before a
// compaction, so the dashboard can show the fill without reading
// transcripts itself; and at the next prompt and the session's end, which
// catch a reply a Stop did not see written (NoteContext).
var contextEvents = map[string]bool{"PostToolUse": true, "Stop": true, "PreCompact": true,
	"UserPromptSubmit": true, "SessionEnd": true}

// NoteContext sets ev's context fill and model from the tail of p's
// transcript (at most TranscriptTail bytes, read once): a Claude Code
// transcript's last main-thread assistant turn, or a Codex rollout's last
// token_count record with the window Codex gives the model
// (codex_rollout.go; the model is the payload's). It leaves ev alone
// when the event does not record it or the transcript does not tell.
//
// Claude Code writes a turn's last reply to the transcript while it runs
// Stop, so a Stop often finds the reply before it there (8 of 10 real
// runs did). Waiting for the client would hold every turn's end, so such
// a Stop records no fill, only the transcript's path: the dashboard reads
// the reply there once it is written (PendingFill), and the next event
// that records a fill (a prompt, the session's end) brings it up to date.
func NoteContext(ev *events.Event, p *Payload) {
	if !contextEvents[ev.Event] || p.TranscriptPath == "" {
		return
	}
	tail, err := readTranscript(p.TranscriptPath, TranscriptTail)
	if err != nil {
		return
	}
	tokens, model, text, ok := lastReply(tail)
	if !ok {
		if tokens, window, ok := CodexContextUsage(tail); ok {
			ev.CtxTokens, ev.CtxWindow, ev.Model = tokens, window, events.Cap(p.Model, 80)
		}
		return
	}
	if ev.Event == "Stop" && p.LastAssistantMessage != "" && !sameReply(text, p.LastAssistantMessage) {
		ev.Transcript = p.TranscriptPath
		return
	}
	ev.CtxTokens, ev.Model = tokens, events.Cap(model, 80)
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
	tail, err := ReadTranscriptTail(path, TranscriptTail)
	if err != nil {
		return 0, "", false
	}
	tokens, model, ok = ContextUsage(tail)
	return tokens, events.Cap(model, 80), ok
}

// readTranscript reads a transcript's tail (a test sees each read).
var readTranscript = ReadTranscriptTail
