package message

import (
	"iter"
	"strings"
)

// Message is what a sender puts in a message file. The recipient and the
// send time are not in it: they are the path and the filename.
type Message struct {
	From      string
	Subject   string
	InReplyTo string
	Tags      []string
	Priority  string
	// AckRequired asks the recipient to acknowledge the message
	// (`st message ack`); it is the header line "ack: required".
	AckRequired bool
	Body        []byte
}

// AckField and AckRequired are the header line of a message that asks
// for an acknowledgement.
const (
	AckField    = "ack"
	AckRequired = "required"
)

// Bytes returns the exact file content: frontmatter in the order from,
// subject, in-reply-to, tags, priority, ack (empty ones omitted), the body
// verbatim, and a final newline only when the body lacks one.
func (m Message) Bytes() []byte {
	pairs := []Pair{{"from", m.From}}
	if m.Subject != "" {
		pairs = append(pairs, Pair{"subject", m.Subject})
	}
	if m.InReplyTo != "" {
		pairs = append(pairs, Pair{"in-reply-to", m.InReplyTo})
	}
	if len(m.Tags) > 0 {
		pairs = append(pairs, Pair{"tags", m.Tags})
	}
	if m.Priority != "" {
		pairs = append(pairs, Pair{"priority", m.Priority})
	}
	if m.AckRequired {
		pairs = append(pairs, Pair{AckField, AckRequired})
	}
	out := Format(pairs, m.Body)
	if len(m.Body) == 0 || m.Body[len(m.Body)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// SplitTags splits a comma list, trims each item and drops empty ones.
func SplitTags(s string) []string {
	var tags []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t != "" {
			tags = append(tags, t)
		}
	}
	return tags
}

// ReadTags reads a stored tags value back: one leading "[" and trailing
// "]" removed, split on commas, items trimmed and unquoted once, empties
// dropped. It never returns nil.
func ReadTags(v string) []string {
	tags := make([]string, 0, strings.Count(v, ",")+1)
	for t := range Tags(v) {
		tags = append(tags, t)
	}
	return tags
}

// Tags yields the tags ReadTags returns, one by one, without a slice.
func Tags(v string) iter.Seq[string] {
	return func(yield func(string) bool) {
		v = strings.TrimPrefix(v, "[")
		v = strings.TrimSuffix(v, "]")
		for rest, more := v, true; more; {
			var t string
			t, rest, more = strings.Cut(rest, ",")
			t = strings.TrimSpace(t)
			if len(t) >= 2 && (t[0] == '"' && t[len(t)-1] == '"' || t[0] == '\'' && t[len(t)-1] == '\'') {
				t = t[1 : len(t)-1]
			}
			if t != "" && !yield(t) {
				return
			}
		}
	}
}

// ValidPriority reports whether p is low, normal or high.
func ValidPriority(p string) bool { return p == "low" || p == "normal" || p == "high" }
