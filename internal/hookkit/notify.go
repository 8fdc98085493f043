package hookkit

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/internal/events"
)

// NotifiesOperator reports whether a notification type is one the
// config sends to the operator.
func NotifiesOperator(c Config, notificationType string) bool {
	return notificationType != "" && contains(c.NotifyOperatorOn, notificationType)
}

// OperatorNote is the message telling the operator that agent waits on a
// human: the notification's title and question, the session and where.
func OperatorNote(agent string, p *Payload) (subject, body string) {
	what := events.Cap(events.FirstLine(p.Title), TitleChars)
	if what == "" {
		what = p.NotificationType
	}
	subject = fmt.Sprintf("agent %s waits: %s", agent, what)
	var b strings.Builder
	fmt.Fprintf(&b, "Agent %s is waiting on a human (%s).\n", agent, p.NotificationType)
	if p.Title != "" {
		fmt.Fprintf(&b, "\nTitle: %s\n", events.Cap(p.Title, 500))
	}
	if p.Message != "" {
		fmt.Fprintf(&b, "Question: %s\n", events.Cap(p.Message, 2000))
	}
	if p.SessionID != "" {
		fmt.Fprintf(&b, "\nSession: %s\n", events.Cap(p.SessionID, 128))
	}
	if p.Cwd != "" {
		fmt.Fprintf(&b, "Directory: %s\n", events.Cap(p.Cwd, 1024))
	}
	return subject, b.String()
}

// waitingTypes are the notifications after which an agent cannot go on
// without a human.
var waitingTypes = map[string]bool{
	"permission_prompt": true, "idle_prompt": true, "elicitation_dialog": true,
	"elicitation_url_dialog": true, "agent_needs_input": true,
}

// Waiting describes an agent waiting on a human.
type Waiting struct {
	Session string `json:"session"`
	Type    string `json:"type"`
	Title   string `json:"title,omitempty"`
	Since   string `json:"since"` // the notification's ts
}

// WaitingOn reports whether a session's recent events (oldest first) end
// in a notification that needs a human and that nothing answered: any
// later event other than another notification (a prompt, a tool call,
// a stop, the session's end) means someone did.
func WaitingOn(evs []events.Event) (Waiting, bool) {
	for i := len(evs) - 1; i >= 0; i-- {
		e := &evs[i]
		if e.Event != "Notification" {
			return Waiting{}, false
		}
		if waitingTypes[e.Type] {
			return Waiting{Session: e.Session, Type: e.Type, Title: e.Title, Since: e.TS}, true
		}
	}
	return Waiting{}, false
}
