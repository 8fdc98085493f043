package hooks

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/termsafe"
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
	subject = fmt.Sprintf("agent %s waits: %s", agent, termsafe.Line(what))
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
