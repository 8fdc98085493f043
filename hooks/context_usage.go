package hooks

import "github.com/smalltalk-go/st/events"

// contextEvents are the events whose line records how full the context
// is (issue 17): after each tool call, at the end of a turn and before a
// compaction, so the dashboard can show the fill without reading
// transcripts itself.
var contextEvents = map[string]bool{"PostToolUse": true, "Stop": true, "PreCompact": true}

// NoteContext sets ev's context fill and model from the tail of p's
// transcript (at most TranscriptTail bytes read): a Claude Code
// transcript's last main-thread assistant turn, or a Codex rollout's last
// token_count record with the window Codex gives the model
// (codex_rollout.go; the model is the payload's). It leaves ev alone
// when the event does not record it or the transcript does not tell.
func NoteContext(ev *events.Event, p *Payload) {
	if !contextEvents[ev.Event] || p.TranscriptPath == "" {
		return
	}
	tail, err := ReadTranscriptTail(p.TranscriptPath, TranscriptTail)
	if err != nil {
		return
	}
	if tokens, model, ok := ContextUsage(tail); ok {
		ev.CtxTokens, ev.Model = tokens, events.Cap(model, 80)
	} else if tokens, window, ok := CodexContextUsage(tail); ok {
		ev.CtxTokens, ev.CtxWindow, ev.Model = tokens, window, events.Cap(p.Model, 80)
	}
}
