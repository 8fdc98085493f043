package inbox

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/message"
)

// Check validates a message whose sender is already resolved, in the
// order every sending path (CLI send and reply, MCP send and reply)
// applies: the in-reply-to grammar, the priority, a non-empty body.
func Check(m message.Message) error {
	if m.InReplyTo != "" && !message.IsCanonical(m.InReplyTo) {
		return sterr.InvalidName(m.InReplyTo)
	}
	if m.Priority != "" && !message.ValidPriority(m.Priority) {
		return sterr.New(sterr.InvalidPriority, "priority must be one of: low, normal, high",
			map[string]any{"value": m.Priority})
	}
	if err := CheckSubject(m.Subject); err != nil {
		return err
	}
	if len(m.Body) == 0 {
		return ErrEmptyBody
	}
	return nil
}

// CheckSubject refuses a subject holding a control character: listings
// and the hooks show it on one line to people and models, where a
// newline would forge lines (a second message, a section of st's own)
// and an escape sequence would reach a terminal.
func CheckSubject(subject string) error {
	if r, ok := termsafe.Control(subject); ok {
		return sterr.New(InvalidSubject, fmt.Sprintf("invalid subject: it holds the control character %U; give one line of plain text", r),
			map[string]any{"subject": subject})
	}
	return nil
}

// InvalidSubject is the error code of a subject st refuses to send.
const InvalidSubject = "INVALID_SUBJECT"

// ReplySubject is the subject of a reply to a message with subject
// orig: "re: " and orig, its control characters escaped (a planted
// original must not make every reply to it refused), or none.
func ReplySubject(orig string) string {
	if orig == "" {
		return ""
	}
	return "re: " + strings.ReplaceAll(termsafe.Line(orig), "\t", `\t`)
}

// ErrEmptyBody is the error for a message with no body.
var ErrEmptyBody = sterr.New(sterr.EmptyBody, "message body is empty (read from stdin)", nil)

// CheckSize refuses a message whose file would be more than limit bytes
// (the maximum message size, layout.MaxMessageVar).
func CheckSize(m message.Message, limit int64) error {
	if n := int64(len(m.Bytes())); n > limit {
		return ErrTooLarge(n, limit)
	}
	return nil
}

// ErrTooLarge is the error for a message of size bytes over limit; a
// negative size is not known (a body read only up to the limit).
func ErrTooLarge(size, limit int64) error { return layout.ErrTooLarge("message", size, limit) }
