package hooks

import (
	"time"

	"github.com/smalltalk-go/st/events"
)

// contextEvents are the events whose line records how full the context
// is: after each tool call, at the end of a turn and before a
// compaction, so the dashboard can show the fill without reading
// transcripts itself; and at the next prompt and the session's end, which
// catch a reply a Stop did not see written (NoteContextUntil).
var contextEvents = map[string]bool{"PostToolUse": true, "Stop": true, "PreCompact": true,
	"UserPromptSubmit": true, "SessionEnd": true}

// NoteContext sets ev's context fill and model from the tail of p's
// transcript (at most TranscriptTail bytes read): a Claude Code
// transcript's last main-thread assistant turn, or a Codex rollout's last
// token_count record with the window Codex gives the model
// (codex_rollout.go; the model is the payload's). It leaves ev alone
// when the event does not record it or the transcript does not tell.
func NoteContext(ev *events.Event, p *Payload) {
	NoteContextUntil(ev, p, time.Time{})
}

// NoteContextUntil is NoteContext that, for a Claude Code Stop, waits
// until at most until for the transcript to hold the reply the payload
// names. Claude Code writes a turn's last reply to the transcript while
// it runs Stop, so the tail often still ends at the reply before (8 of 10
// real runs recorded the previous reply's fill). The tail is re-read
// every replyPoll until the newest reply is the one named; if it does not
// come in time, Stop records no fill rather than the previous reply's,
// and the next event that records one (a prompt, the session's end)
// brings the figure up to date.
func NoteContextUntil(ev *events.Event, p *Payload, until time.Time) {
	if !contextEvents[ev.Event] || p.TranscriptPath == "" {
		return
	}
	for {
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
		if ev.Event != "Stop" || p.LastAssistantMessage == "" || sameReply(text, p.LastAssistantMessage) {
			ev.CtxTokens, ev.Model = tokens, events.Cap(model, 80)
			return
		}
		if !time.Now().Add(replyPoll).Before(until) {
			return
		}
		time.Sleep(replyPoll)
	}
}

// readTranscript reads a transcript's tail (a test sees each read).
var readTranscript = ReadTranscriptTail

// replyPoll is how often Stop re-reads the transcript for its reply, and
// replyWait how long it waits at most (within its budget).
const (
	replyPoll = 20 * time.Millisecond
	replyWait = 500 * time.Millisecond
)
