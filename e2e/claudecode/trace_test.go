package claudecode

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/jaegertest"
	"github.com/smalltalk-go/st/trace"
)

// A session of the real Claude Code, with an OTLP endpoint set, reaches a
// real Jaeger as one trace when it ends: the session-end hook starts the
// export; every model call is a chat span with exactly the usage the
// mock API reported (input tokens with the cached ones), nested in its turn; the tool call and the subagent
// are there with the subagent's own call under it.
func TestSessionEndExportsTheTrace(t *testing.T) {
	j := jaegertest.Start(t, "")
	p := newProject(t, func(n int, r *Request) Reply {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Text, subagentTask) {
			reply := Text("SUB-REPORT: nothing to see")
			reply.InputTokens = 777
			return reply
		}
		switch {
		case strings.Contains(r.LastUser(), "SUB-REPORT"):
			reply := Text("TRACE-DONE")
			reply.InputTokens = 140000
			return reply
		case r.HasToolResult("toolu_agent"):
			return Text("waiting for the helper")
		case r.HasToolResult("toolu_bash"):
			reply := ToolUse("toolu_agent", "Agent", map[string]any{"description": "look around", "prompt": subagentTask, "subagent_type": "general-purpose"})
			reply.InputTokens = 61234
			return reply
		}
		reply := ToolUse("toolu_bash", "Bash", map[string]any{"command": "echo TRACED", "description": "print a marker"})
		reply.InputTokens, reply.CacheRead = 50000, 40000
		return reply
	})
	// Claude Code removes OTEL_* from its hooks' environment: config.yaml
	// names the endpoint, as the README says.
	p.writeConfigYAML("otel:\n  OTEL_EXPORTER_OTLP_ENDPOINT: " + j.OTLP + "\n  OTEL_SERVICE_NAME: st-e2e\n")
	r := p.claude("TRACE-PROMPT: run something")
	p.checkClean(r)
	if r.result == nil || r.result["result"] != "TRACE-DONE" {
		t.Fatalf("the run ended with %v", r.result["result"])
	}
	// Every request the mock answered, with the usage it reported.
	var want []string
	for _, req := range p.mock.Messages() {
		// The GenAI conventions count cached tokens in input_tokens.
		want = append(want, strconv.Itoa(req.ReportedInput+req.ReportedCacheRead)+"/10")
	}
	spans, err := j.Trace(trace.TraceID(p.agent, r.session), len(want)+4, 30*time.Second)
	if err != nil {
		t.Fatalf("%v\nspans: %+v", err, names(spans))
	}
	byID := map[string]jaegertest.Span{}
	for _, s := range spans {
		byID[s.SpanID] = s
	}
	var got []string
	for _, s := range spans {
		if s.Tag("gen_ai.operation.name") == "chat" {
			got = append(got, s.Tag("gen_ai.usage.input_tokens")+"/"+s.Tag("gen_ai.usage.output_tokens"))
		}
	}
	if sortJoin(got) != sortJoin(want) {
		t.Errorf("chat spans' input/output tokens = %v, want the mock's usage of every request %v", got, want)
	}
	var sub, bash jaegertest.Span
	for _, s := range spans {
		switch s.OperationName {
		case "invoke_agent general-purpose":
			sub = s
		case "execute_tool Bash":
			bash = s
		}
	}
	if sub.SpanID == "" || bash.SpanID == "" {
		t.Fatalf("no subagent or Bash span among %v", names(spans))
	}
	subCalls := 0
	for _, s := range spans {
		if s.Parent() == sub.SpanID && s.Tag("gen_ai.operation.name") == "chat" {
			subCalls++
			if s.Tag("gen_ai.usage.input_tokens") != "777" {
				t.Errorf("the subagent's chat span has %s input tokens, want 777", s.Tag("gen_ai.usage.input_tokens"))
			}
		}
	}
	if subCalls != 1 {
		t.Errorf("the subagent span holds %d chat spans, want its one call", subCalls)
	}
	if !strings.HasPrefix(byID[bash.Parent()].OperationName, "turn") || !strings.HasPrefix(byID[sub.Parent()].OperationName, "turn") {
		t.Errorf("the Bash and subagent spans are not in a turn: %q, %q", byID[bash.Parent()].OperationName, byID[sub.Parent()].OperationName)
	}
}

func names(spans []jaegertest.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.OperationName)
	}
	return out
}

func sortJoin(s []string) string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return strings.Join(c, ",")
}
