package codex

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// mockAPI is a scripted OpenAI Responses API: every POST /v1/responses is
// recorded and answered by the next reply of the script, streamed as
// server-sent events the way the real API streams them.
type mockAPI struct {
	t      testing.TB
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []apiRequest
	script func(n int, req apiRequest) reply
}

// apiRequest is one request the client sent.
type apiRequest struct {
	Raw  string
	Body map[string]any
}

// reply is the mock's answer to one request: an error status, or output
// items streamed as SSE.
type reply struct {
	Status  int    // non-zero: answer with this status and ErrBody
	ErrBody string // the error's JSON body
	Items   []item
	Usage   *usage // the response's token usage; nil: 10 in, 5 out
}

// usage is a response's token accounting, as the Responses API reports
// it in response.completed.
type usage struct {
	Input, Cached, Output, Reasoning int
}

// item is one output item: assistant text, a function call, or a custom
// (freeform) tool call such as apply_patch.
type item struct {
	Text   string // a message
	Call   string // a function call's tool name
	NS     string // its namespace (MCP tools: "mcp__<server>")
	Args   any    // its arguments, JSON-encoded into "arguments"
	Custom string // a custom (freeform) tool call's tool name
	Input  string // its input, as the model wrote it
}

func say(text string) reply { return reply{Items: []item{{Text: text}}} }

func call(name string, args any) reply { return reply{Items: []item{{Call: name, Args: args}}} }

// mcpCall calls tool of the MCP server named server.
func mcpCall(server, tool string, args any) reply {
	return reply{Items: []item{{Call: tool, NS: "mcp__" + server, Args: args}}}
}

// newMockAPI starts the mock on loopback; script picks the nth reply
// (n counts from 0). Past the script's end it says "done".
func newMockAPI(t testing.TB, script func(n int, req apiRequest) reply) *mockAPI {
	m := &mockAPI{t: t, script: script}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve)) // 127.0.0.1:0
	t.Cleanup(m.srv.Close)
	return m
}

// BaseURL is the provider base_url for Codex's config.
func (m *mockAPI) BaseURL() string { return m.srv.URL + "/v1" }

// Requests returns the requests received so far.
func (m *mockAPI) Requests() []apiRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]apiRequest(nil), m.reqs...)
}

func (m *mockAPI) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	req := apiRequest{Raw: string(raw)}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		m.t.Errorf("mock: request is not JSON (%v): %.200s", err, raw)
	}
	m.mu.Lock()
	n := len(m.reqs)
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	rep := say("done")
	if m.script != nil {
		rep = m.script(n, req)
	}
	if rep.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		io.WriteString(w, rep.ErrBody)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	stream(w, n, rep)
}

// stream writes a response as the Responses API streams it.
func stream(w io.Writer, n int, rep reply) {
	items := rep.Items
	id := fmt.Sprintf("resp_%d", n)
	event := func(v map[string]any) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], data)
	}
	event(map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	for i, it := range items {
		var done map[string]any
		if it.Custom != "" {
			done = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_%d_%d", n, i),
				"call_id": fmt.Sprintf("call_%d_%d", n, i), "name": it.Custom, "input": it.Input}
			event(map[string]any{"type": "response.output_item.added", "output_index": i, "item": done})
		} else if it.Call != "" {
			args, _ := json.Marshal(it.Args)
			done = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d_%d", n, i),
				"call_id": fmt.Sprintf("call_%d_%d", n, i), "name": it.Call, "arguments": string(args)}
			if it.NS != "" {
				done["namespace"] = it.NS
			}
			event(map[string]any{"type": "response.output_item.added", "output_index": i, "item": done})
		} else {
			msgID := fmt.Sprintf("msg_%d_%d", n, i)
			event(map[string]any{"type": "response.output_item.added", "output_index": i,
				"item": map[string]any{"type": "message", "id": msgID, "role": "assistant", "content": []any{}}})
			for _, chunk := range chunks(it.Text) {
				event(map[string]any{"type": "response.output_text.delta", "item_id": msgID,
					"output_index": i, "content_index": 0, "delta": chunk})
			}
			done = map[string]any{"type": "message", "id": msgID, "role": "assistant",
				"content": []any{map[string]any{"type": "output_text", "text": it.Text, "annotations": []any{}}}}
		}
		event(map[string]any{"type": "response.output_item.done", "output_index": i, "item": done})
	}
	use := map[string]any{"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5,
		"output_tokens_details": nil, "total_tokens": 15}
	if u := rep.Usage; u != nil {
		use = map[string]any{"input_tokens": u.Input, "input_tokens_details": map[string]any{"cached_tokens": u.Cached},
			"output_tokens": u.Output, "output_tokens_details": map[string]any{"reasoning_tokens": u.Reasoning},
			"total_tokens": u.Input + u.Output}
	}
	event(map[string]any{"type": "response.completed", "response": map[string]any{"id": id, "usage": use}})
}

// chunks splits text in two deltas, as a stream would.
func chunks(s string) []string {
	if len(s) < 2 {
		return []string{s}
	}
	return []string{s[:len(s)/2], s[len(s)/2:]}
}

// Contains reports whether the request's body holds s as JSON-escaped
// text (so a multi-line needle matches the body's \n escapes).
func (r apiRequest) Contains(s string) bool {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the client sends <, > and & as they are
	enc.Encode(s)
	return strings.Contains(r.Raw, strings.Trim(strings.TrimSpace(b.String()), `"`))
}

// ToolNames lists the names of the tools the request offers the model.
func (r apiRequest) ToolNames() []string {
	var names []string
	tools, _ := r.Body["tools"].([]any)
	for _, t := range tools {
		tm, _ := t.(map[string]any)
		if name, ok := tm["name"].(string); ok {
			names = append(names, name)
		}
		// Namespaced tools (MCP servers) nest theirs.
		if sub, ok := tm["tools"].([]any); ok {
			for _, s := range sub {
				if sm, ok := s.(map[string]any); ok {
					if name, ok := sm["name"].(string); ok {
						names = append(names, fmt.Sprint(tm["name"], "/", name))
					}
				}
			}
		}
	}
	return names
}

// FunctionOutput returns the output the client sent back for call_id
// (a function's or a custom tool's).
func (r apiRequest) FunctionOutput(callID string) (string, bool) {
	input, _ := r.Body["input"].([]any)
	for _, in := range input {
		im, _ := in.(map[string]any)
		if (im["type"] == "function_call_output" || im["type"] == "custom_tool_call_output") && im["call_id"] == callID {
			switch out := im["output"].(type) {
			case string:
				return out, true
			default:
				data, _ := json.Marshal(out)
				return string(data), true
			}
		}
	}
	return "", false
}
