package hooks

import (
	"os"

	"github.com/smalltalk-go/st/events"
)

// noteWhere records where a person finds the agent (its project folder,
// this host, its tmux pane) on the lines after which someone may have to
// go there: a session's start, a notification (it may wait on a human),
// an API error that stopped it. The board and `st overview` show it. A
// payload without a folder (not a client's) records nothing.
func noteWhere(ev *events.Event, p *Payload, opt Options) {
	switch ev.Event {
	case "SessionStart", "Notification", "StopFailure":
	default:
		return
	}
	if p.Cwd == "" {
		return
	}
	ev.Cwd = events.Cap(p.Cwd, 1024)
	ev.Pane = events.Cap(opt.Spool.TmuxPane, 64)
	if h, err := os.Hostname(); err == nil {
		ev.Host = events.Cap(h, 255)
	}
}
