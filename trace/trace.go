// Package trace turns one finished session, as st recorded it, into a
// trace: a tree of spans in the shape the OpenTelemetry GenAI semantic
// conventions give an agent's run (invoke_agent, chat, execute_tool),
// ready for any OTLP backend. It is plain Go: cmd/st-trace holds the
// OpenTelemetry SDK that sends it, so no other st command links it.
//
// The hooks' event log gives the session's outline (prompts and turns,
// tool calls with their durations and failures, subagents, compactions,
// API errors); the client's transcript, when it can be read, gives each
// model call with its model and token usage. Span and trace IDs are
// derived from the agent, the session and each span's place in it, so
// the same session always yields the same trace: sending it twice sends
// the same spans, which a backend takes as one trace.
package trace

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Trace is one session's spans, the root first.
type Trace struct {
	Agent   string `json:"agent"`
	Session string `json:"session"`
	TraceID string `json:"trace_id"` // 32 hex digits
	Spans   []Span `json:"spans"`
}

// Span is one span of a trace.
type Span struct {
	ID     string      `json:"id"`               // 16 hex digits
	Parent string      `json:"parent,omitempty"` // "" for the root
	Name   string      `json:"name"`
	Kind   string      `json:"kind,omitempty"` // "client" for model calls, else internal
	Start  time.Time   `json:"start"`
	End    time.Time   `json:"end"`
	Attrs  []Attr      `json:"attrs,omitempty"`
	Events []SpanEvent `json:"events,omitempty"`
	// Error is the failure's description when the span failed.
	Error string `json:"error,omitempty"`
}

// Attr is one attribute: a string, an integer or a boolean.
type Attr struct {
	Key  string `json:"k"`
	Str  string `json:"s,omitempty"`
	Int  int64  `json:"i,omitempty"`
	Bool bool   `json:"b,omitempty"`
	Type string `json:"t"` // "string", "int" or "bool"
}

// String, Int and Bool make attributes.
func String(k, v string) Attr    { return Attr{Key: k, Str: v, Type: "string"} }
func Int(k string, v int64) Attr { return Attr{Key: k, Int: v, Type: "int"} }
func Bool(k string, v bool) Attr { return Attr{Key: k, Bool: v, Type: "bool"} }

// SpanEvent is something that happened at one moment inside a span.
type SpanEvent struct {
	Name  string    `json:"name"`
	At    time.Time `json:"at"`
	Attrs []Attr    `json:"attrs,omitempty"`
}

// Attr returns the span's attribute key, and whether it has one.
func (s *Span) Attr(key string) (Attr, bool) {
	for _, a := range s.Attrs {
		if a.Key == key {
			return a, true
		}
	}
	return Attr{}, false
}

// TraceID is the ID of the trace of agent's session (32 hex digits).
func TraceID(agent, session string) string { return traceID(agent, session) }

// traceID is the trace's ID for agent's session.
func traceID(agent, session string) string {
	sum := sha256.Sum256([]byte("st trace\x00" + agent + "\x00" + session))
	return hex.EncodeToString(sum[:16])
}

// spanID is the ID of the span at key (its place in the session) of the
// trace tid; never all zeros, which OTLP reads as no span.
func spanID(tid, key string) string {
	sum := sha256.Sum256([]byte(tid + "\x00" + key))
	if sum[0]|sum[1]|sum[2]|sum[3]|sum[4]|sum[5]|sum[6]|sum[7] == 0 {
		sum[7] = 1
	}
	return hex.EncodeToString(sum[:8])
}
