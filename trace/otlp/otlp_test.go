package otlp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/jaegertest"
	"github.com/smalltalk-go/st/internal/storetest"
	"github.com/smalltalk-go/st/trace"
)

func at(sec int) time.Time { return time.Date(2026, 12, 1, 10, 0, sec, 0, time.UTC) }

func ev(sec int, event string, mod func(*events.Event)) events.Event {
	e := events.Event{TS: events.Stamp(at(sec)), Event: event, Session: "s1"}
	if mod != nil {
		mod(&e)
	}
	return e
}

// session is one prompt that runs a tool, a subagent and a failing tool.
func session() trace.Session {
	return trace.Session{Agent: "alice", ID: "s1",
		Events: []events.Event{
			ev(0, "SessionStart", nil),
			ev(1, "UserPromptSubmit", nil),
			ev(4, "PostToolUse", func(e *events.Event) { e.Tool, e.ToolMS = "Bash", 2000 }),
			ev(5, "SubagentStart", func(e *events.Event) { e.AgentID, e.AgentType = "a1", "Explore" }),
			ev(8, "SubagentStop", func(e *events.Event) { e.AgentID, e.AgentType, e.Message = "a1", "Explore", "done" }),
			ev(9, "PostToolUseFailure", func(e *events.Event) { e.Tool, e.Error = "Read", "no such file" }),
			ev(12, "Stop", nil),
			ev(30, "SessionEnd", nil),
		},
		Calls: []trace.ModelCall{{ID: "m1", Model: "claude-opus-5-5", Start: at(1), End: at(2), Usage: trace.Usage{Input: 50000, Output: 10}}},
	}
}

// A real Jaeger receives the session as one trace: the span tree, the
// GenAI attributes and the token counts as st built them.
func TestJaegerReceivesTheSessionTrace(t *testing.T) {
	j := jaegertest.Start(t, "")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", j.OTLP)
	tr := trace.Build(session())
	if err := Send(context.Background(), []trace.Trace{tr}); err != nil {
		t.Fatal(err)
	}
	spans, err := j.Trace(tr.TraceID, len(tr.Spans), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != len(tr.Spans) {
		t.Fatalf("Jaeger holds %d spans, st sent %d", len(spans), len(tr.Spans))
	}
	byID := map[string]jaegertest.Span{}
	byName := map[string]jaegertest.Span{}
	for _, s := range spans {
		byID[s.SpanID], byName[s.OperationName] = s, s
	}
	parent := func(name string) string {
		s, ok := byName[name]
		if !ok {
			t.Fatalf("Jaeger has no span %q", name)
		}
		return byID[s.Parent()].OperationName
	}
	for _, tt := range []struct{ span, parent string }{
		{"invoke_agent alice", ""}, {"turn 1", "invoke_agent alice"}, {"chat claude-opus-5-5", "turn 1"},
		{"execute_tool Bash", "turn 1"}, {"invoke_agent Explore", "turn 1"}, {"execute_tool Read", "turn 1"},
	} {
		if got := parent(tt.span); got != tt.parent {
			t.Errorf("%s: parent %q in Jaeger, want %q", tt.span, got, tt.parent)
		}
	}
	chat := byName["chat claude-opus-5-5"]
	for key, want := range map[string]string{"gen_ai.usage.input_tokens": "50000", "gen_ai.usage.output_tokens": "10",
		"gen_ai.operation.name": "chat", "gen_ai.provider.name": "anthropic", "gen_ai.request.model": "claude-opus-5-5", "span.kind": "client"} {
		if got := chat.Tag(key); got != want {
			t.Errorf("chat span: %s = %q, want %q", key, got, want)
		}
	}
	if got := byName["execute_tool Read"].Tag("error"); got != "true" {
		t.Errorf("the failed tool's span is not an error in Jaeger: error=%q", got)
	}
	if bash := byName["execute_tool Bash"]; bash.Duration != 2_000_000 || bash.Tag("gen_ai.tool.name") != "Bash" {
		t.Errorf("Bash span: %d µs, tool %q", bash.Duration, bash.Tag("gen_ai.tool.name"))
	}
}

// A collector that is down loses nothing: the export keeps the trace in
// the store, and once the collector is up the next export delivers it.
func TestCollectorDownThenUp(t *testing.T) {
	addr := jaegertest.FreeAddr(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://"+addr)
	log, err := events.MarshalLog(session().Events)
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := storetest.Open(t, map[string]string{"alice/events/s1.jsonl": string(log)})
	export := trace.Export{Tree: tree, Agents: []string{"alice"}, Sessions: []trace.Ref{{Agent: "alice", Session: "s1"}}, Now: time.Now, Send: Send}
	if _, err := export.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "kept in the store") {
		t.Fatalf("export with the collector down: %v", err)
	}
	j := jaegertest.Start(t, addr)
	export.Sessions = nil // the next export, whatever it is asked, sends what waits
	res, err := export.Run(context.Background())
	if err != nil || res.Sent != 1 {
		t.Fatalf("export once the collector is up: %+v, %v", res, err)
	}
	stored := session()
	stored.Calls = nil // the store has the events; this test gives no transcript
	want := trace.Build(stored)
	spans, err := j.Trace(want.TraceID, len(want.Spans), 30*time.Second)
	if err != nil || len(spans) != len(want.Spans) {
		t.Fatalf("Jaeger holds %d spans of the spooled trace, want %d: %v", len(spans), len(want.Spans), err)
	}
	if res, err := export.Run(context.Background()); err != nil || res.Sent != 0 {
		t.Errorf("a later export sent it again: %+v, %v", res, err)
	}
}

// A collector that answers 413 refuses the trace as too large: Send says
// so (trace.ErrTooLarge), and the export parks it instead of sending it
// again with every later trace. One that is down is not "too large".
func TestTooLargeIsTold(t *testing.T) {
	status := http.StatusRequestEntityTooLarge
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "request body too big", status)
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	tr := trace.Build(session())
	if err := Send(context.Background(), []trace.Trace{tr}); !errors.Is(err, trace.ErrTooLarge) {
		t.Errorf("a 413: %v, want trace.ErrTooLarge", err)
	}
	status = http.StatusBadRequest
	if err := Send(context.Background(), []trace.Trace{tr}); err == nil || errors.Is(err, trace.ErrTooLarge) {
		t.Errorf("a 400: %v, want an error other than trace.ErrTooLarge", err)
	}
}
