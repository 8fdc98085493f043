package events

import "github.com/smalltalk-go/st/internal/fsutil"

// "Waiting on a human": an agent whose latest session ended in
// a notification that needs a person (a permission prompt, an idle
// prompt, a dialog) and that nothing answered yet. overview and
// agents --enrich show it.

// waitingType reports whether t is a notification after which an agent
// cannot go on without a human.
func waitingType(t string) bool {
	switch t {
	case "permission_prompt", "idle_prompt", "elicitation_dialog", "elicitation_url_dialog", "agent_needs_input":
		return true
	}
	return false
}

// Waiting describes an agent waiting on a human.
type Waiting struct {
	Session string `json:"session"`
	Type    string `json:"type"`
	// Message is what the agent asks (Claude Code's notification
	// message, e.g. "Claude needs your permission to use Bash"); Title
	// is kept for clients that send one (Claude Code does not).
	Message string `json:"message,omitempty"`
	Title   string `json:"title,omitempty"`
	Since   string `json:"since"` // the notification's ts
}

// WaitingOn reports whether a session's recent events (oldest first) end
// in a notification that needs a human and that nothing answered: any
// later event other than another notification (a prompt, a tool call,
// a stop, the session's end) means someone did.
func WaitingOn(evs []Event) (Waiting, bool) {
	for i := len(evs) - 1; i >= 0; i-- {
		e := &evs[i]
		if e.Event != "Notification" {
			return Waiting{}, false
		}
		if waitingType(e.Type) {
			return Waiting{Session: e.Session, Type: e.Type, Message: e.Message, Title: e.Title, Since: e.TS}, true
		}
	}
	return Waiting{}, false
}

// Question is what the agent waits for, in words: the notification's
// message, else its title, else "".
func (w *Waiting) Question() string {
	if w.Message != "" {
		return w.Message
	}
	return w.Title
}

// waitingTail bounds how much of the latest log WaitingFor reads.
const waitingTail = 16 << 10

// WaitingFor reports whether agent waits on a human, judged from its
// most recently written session log (for overview and agents --enrich).
func WaitingFor(t *fsutil.Tree, agent string) (Waiting, bool) {
	if t == nil {
		return Waiting{}, false
	}
	rel, _, ok := Latest(t, agent)
	if !ok {
		return Waiting{}, false
	}
	evs, err := TailFile(t, rel, waitingTail)
	if err != nil {
		return Waiting{}, false
	}
	return WaitingOn(evs)
}
