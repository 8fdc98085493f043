package codex

import (
	"maps"
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

	// Sent again (as the next turn's Stop does), it is the same trace:
	// the same span IDs, none added.
	rollouts, _ := filepath.Glob(filepath.Join(r.codexHome, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if len(rollouts) != 1 {
		t.Fatalf("rollouts %v, want one", rollouts)
	}
	saved := r.env
	r.env = append(append([]string(nil), r.env...), "OTEL_EXPORTER_OTLP_ENDPOINT="+j.OTLP)
	out, errOut, err := r.run(time.Minute, filepath.Join(binDir, "st-trace"), "export", "--root", r.root, "--agent", "alice",
		"--session", session, "--transcript", rollouts[0], "--again")
	r.env = saved
	if err != nil || !strings.HasPrefix(out, "sent 1 trace") {
		t.Fatalf("st-trace export --again: %v\n%s%s", err, out, errOut)
	}
	again, err := j.Trace(trace.TraceID("alice", session), len(spans), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := spanIDs(again), spanIDs(spans); got != want {
		t.Errorf("sent again, the trace's spans are %s, were %s", got, want)
	}
}

// spanIDs is the set of the spans' IDs, sorted.
func spanIDs(spans []jaegertest.Span) string {
	set := map[string]bool{}
	for _, s := range spans {
		set[s.SpanID] = true
	}
	return strings.Join(slices.Sorted(maps.Keys(set)), " ")
}

func spanNames(spans []jaegertest.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.OperationName)
	}
	return out
}
