package codex

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/jaegertest"
	"github.com/smalltalk-go/st/trace"
)

// Codex has no session end: its Stop sends the session as a trace, built
// from st's event log and Codex's rollout. A real Jaeger receives it:
// the turn, the shell call, and a chat span per model response with the
// tokens Codex recorded for it (input with the cached ones, which Codex
// counts in, the cached ones beside them, output).
func TestStopExportsTheTrace(t *testing.T) {
	t.Parallel()
	j := jaegertest.Start(t, "")
	r := newRig(t, func(n int, req apiRequest) reply {
		if n == 0 {
			rep := call("exec_command", map[string]any{"cmd": "echo TRACED", "login": false})
			rep.Usage = &usage{Input: 52000, Cached: 48000, Output: 700, Reasoning: 300}
			return rep
		}
		rep := say("TRACE-DONE")
		rep.Usage = &usage{Input: 61234, Cached: 52000, Output: 420, Reasoning: 100}
		return rep
	})
	r.agent("alice")
	r.write(filepath.Join(r.home, ".config", "smalltalk", "config.yaml"),
		"otel:\n  OTEL_EXPORTER_OTLP_ENDPOINT: "+j.OTLP+"\n  OTEL_SERVICE_NAME: st-e2e\n")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	r.codex("run echo TRACED in the shell")

	logs, _ := filepath.Glob(filepath.Join(r.root, "alice", "events", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("event logs %v, want one session's", logs)
	}
	session := strings.TrimSuffix(filepath.Base(logs[0]), ".jsonl")
	spans, err := j.Trace(trace.TraceID("alice", session), 5, 60*time.Second)
	if err != nil {
		log, _ := os.ReadFile(logs[0])
		t.Fatalf("%v\nspans %v\nevent log:\n%s", err, spanNames(spans), log)
	}
	byID := map[string]jaegertest.Span{}
	for _, s := range spans {
		byID[s.SpanID] = s
	}
	var chats []string
	var tool jaegertest.Span
	for _, s := range spans {
		switch {
		case s.Tag("gen_ai.operation.name") == "chat":
			chats = append(chats, s.Tag("gen_ai.response.model")+" "+s.Tag("gen_ai.usage.input_tokens")+"/"+
				s.Tag("gen_ai.usage.cache_read.input_tokens")+"/"+s.Tag("gen_ai.usage.output_tokens"))
		case strings.HasPrefix(s.OperationName, "execute_tool"):
			tool = s
		}
	}
	if got, want := strings.Join(slices.Sorted(slices.Values(chats)), ", "), "gpt-5.1-codex 52000/48000/700, gpt-5.1-codex 61234/52000/420"; got != want {
		t.Errorf("chat spans (model input/cached/output): %s\nwant %s", got, want)
	}
	if tool.SpanID == "" || !strings.Contains(tool.Tag("st.tool.command"), "echo TRACED") ||
		!strings.HasPrefix(byID[tool.Parent()].OperationName, "turn") {
		t.Errorf("no shell call span in a turn among %v", spanNames(spans))
	}
}

func spanNames(spans []jaegertest.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.OperationName)
	}
	return out
}
