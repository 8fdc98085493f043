package gemini

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

// Gemini CLI's SessionEnd sends the session as a trace, built from st's
// event log and Gemini CLI's own chat record (the transcript_path of
// its payload). A real Jaeger receives it: the write_file call with its
// file, and a chat span per model answer with the tokens Gemini CLI
// recorded for it (the prompt's, cached ones included as the API counts
// them; the cached ones beside them; the answer's).
func TestSessionEndExportsTheTrace(t *testing.T) {
	t.Parallel()
	j := jaegertest.Start(t, "")
	var r *rig
	r = newRig(t, func(n int, req apiRequest) reply {
		if n == 0 {
			rep := call("write_file", map[string]any{"file_path": filepath.Join(r.proj, "notes.txt"), "content": "hi\n"})
			rep.Usage = &usage{Prompt: 5000, Cached: 4000, Output: 70}
			return rep
		}
		rep := say("TRACE-DONE")
		rep.Usage = &usage{Prompt: 6100, Cached: 5000, Output: 42}
		return rep
	})
	r.write(filepath.Join(r.home, ".config", "smalltalk", "config.yaml"),
		"otel:\n  OTEL_EXPORTER_OTLP_ENDPOINT: "+j.OTLP+"\n  OTEL_SERVICE_NAME: st-e2e\n")
	r.st("hooks", "install", "--for", "gemini")
	r.trust()
	r.gemini("write notes.txt")

	logs, _ := filepath.Glob(filepath.Join(r.root, "alice", "events", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("event logs %v, want one session's", logs)
	}
	session := strings.TrimSuffix(filepath.Base(logs[0]), ".jsonl")
	spans, err := j.Trace(trace.TraceID("alice", session), 4, 60*time.Second)
	if err != nil {
		log, _ := os.ReadFile(logs[0])
		t.Fatalf("%v\nevent log:\n%s", err, log)
	}
	var chats []string
	var tool jaegertest.Span
	for _, s := range spans {
		switch {
		case s.Tag("gen_ai.operation.name") == "chat":
			chats = append(chats, s.Tag("gen_ai.usage.input_tokens")+"/"+s.Tag("gen_ai.usage.cache_read.input_tokens")+"/"+
				s.Tag("gen_ai.usage.output_tokens"))
			if s.Tag("gen_ai.provider.name") != "gcp.gemini" {
				t.Errorf("chat span of model %q, provider %q", s.Tag("gen_ai.response.model"), s.Tag("gen_ai.provider.name"))
			}
		case s.OperationName == "execute_tool write_file":
			tool = s
		}
	}
	if got, want := strings.Join(slices.Sorted(slices.Values(chats)), ", "), "5000/4000/70, 6100/5000/42"; got != want {
		t.Errorf("chat spans (input/cached/output): %s\nwant %s", got, want)
	}
	if tool.Tag("st.tool.path") != filepath.Join(r.proj, "notes.txt") {
		t.Errorf("the write_file span names %q, want notes.txt", tool.Tag("st.tool.path"))
	}
}
