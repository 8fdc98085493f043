package hooks

import (
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/fleet"
)

// noteWhere records where a person finds the agent (its project folder,
// this host by its fleet name, its tmux pane) on the lines after which
// someone may have to go there: a session's start, a notification (it
// may wait on a human), an API error that stopped it, a failed tool call
// (it may thrash), and every turn boundary, which the attention fold
// starts from (attention.Read), so that whatever alarm the lines after
// one raise, the fold knows where the agent is. The board and `st
// overview` show it. A payload without a folder (not a client's)
// records nothing.
func noteWhere(ev *events.Event, p *Payload, opt Options) {
	switch ev.Event {
	case "SessionStart", "Notification", "StopFailure", "PostToolUseFailure",
		"PostToolUse", "Stop", "UserPromptSubmit", "SessionEnd":
	default:
		return
	}
	if p.Cwd == "" {
		return
	}
	ev.Cwd = events.Cap(p.Cwd, 1024)
	ev.Pane = events.Cap(opt.Spool.TmuxPane, 64)
	ev.Host = events.Cap(fleet.Local(opt.FleetHost), 255)
}
