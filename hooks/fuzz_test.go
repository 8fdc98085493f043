package hooks

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/smalltalk-go/st/events"
)

// FuzzNewEvent feeds arbitrary payloads through the event-line builder:
// it never panics, always yields one line, and never carries more than
// 200 characters of a command.
func FuzzNewEvent(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"x"}`,
		`{"session_id":"../x","error":{"a":1},"error_type":7,"tool_input":[1,2]}`,
		`{"prompt":"p","notification_type":"permission_prompt","title":"T\nU"}`,
		`not json`, `null`, `{"tool_input":{"offset":null,"limit":"x"}}`,
	} {
		f.Add(s, "post-tool-use")
	}
	f.Fuzz(func(t *testing.T, payload, stEvent string) {
		p, _ := ParsePayload([]byte(payload))
		e := NewEvent(EventName(stEvent, &p), &p, t0)
		line, err := events.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("not one line: %q", line)
		}
		if utf8.RuneCountInString(e.Command) > CommandChars || strings.ContainsAny(e.Title, "\r\n") {
			t.Fatalf("caps not applied: %+v", e)
		}
		if back, ok := events.Parse(line[:len(line)-1]); e.Event != "" && (!ok || back.Command != e.Command) {
			t.Fatalf("line does not parse back: %q", line)
		}
		CompileDeny([]DenyRule{{Pattern: "x"}}).Match(p.ToolName, p.Input())
		LargeRead(p.ToolName, p.Input(), 1<<20, 10)
	})
}

// FuzzContextUsage reads arbitrary transcript tails without panicking.
func FuzzContextUsage(f *testing.F) {
	f.Add([]byte(usageLine(10, 20, 30, false) + "\n"))
	f.Add([]byte("\n\n{\"usage\":\n"))
	f.Add([]byte(`{"message":{"usage":{"input_tokens":-5}}}`))
	f.Fuzz(func(t *testing.T, tail []byte) {
		n, _, ok := ContextUsage(tail)
		if ok && n <= 0 {
			t.Fatalf("ok with %d tokens", n)
		}
		ContextAdvice(n, DefaultContextWindow, 0)
	})
}

// FuzzCodexContextUsage reads arbitrary rollout tails without panicking.
func FuzzCodexContextUsage(f *testing.F) {
	f.Add([]byte(tokenCount(61654, 258400) + "\n"))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"token_count","info":null}}`))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"total_tokens":-5},"model_context_window":-1}}}`))
	f.Fuzz(func(t *testing.T, tail []byte) {
		tokens, window, ok := CodexContextUsage(tail)
		if ok && tokens <= 0 || window < 0 {
			t.Fatalf("ok %v with %d tokens of %d", ok, tokens, window)
		}
	})
}

// FuzzParseConfig reads arbitrary config files without panicking.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("deny:\n  - {tool: Bash, pattern: 'rm', reason: no}\nnotify_operator_on: [a]\n"))
	f.Add([]byte("context_window: -1\noperator: [x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := ParseConfig(data)
		if c.ContextWindow <= 0 {
			t.Fatalf("context window %d", c.ContextWindow)
		}
		CompileDeny(c.Deny)
	})
}
