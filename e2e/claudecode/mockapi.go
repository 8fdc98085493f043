// Package claudecode runs st against the real Claude Code CLI: the pinned
// npm release talks to a mock of the Anthropic Messages API on loopback,
// in a scratch project wired with `st init` and `st hooks install --all`,
// and the tests check what the model was shown and what landed in
// $ST_ROOT. The mock lives in this non-test file so that a test can be
// read next to the replies it scripts; the tests are in *_test.go.
package claudecode

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Request is one call the client made to the mock, as recorded.
type Request struct {
	Method string
	Path   string
	Body   []byte
	// Parsed fields of a /v1/messages body.
	Model    string
	Stream   bool
	System   string // every system text block, joined by newlines
	Messages []Message
	Tools    []string // tool names offered to the model
	// ReportedInput is the input_tokens the reply's usage reported (0:
	// no reply with usage was sent), set under the mock's lock.
	ReportedInput int
	// ReportedCacheRead is its cache_read_input_tokens.
	ReportedCacheRead int
}

// Message is one message of a /v1/messages request, with its content
// blocks kept raw and the text of every block flattened for searching.
type Message struct {
	Role    string
	Content []json.RawMessage
	Text    string // the text of text blocks and tool_result contents
}

// Reply is what the mock answers to one /v1/messages request: an error
// status, or an assistant message of text and tool_use blocks.
type Reply struct {
	Status  int               // 0 = 200
	Error   string            // the error type for a non-200 status
	Headers map[string]string // extra response headers (retry-after)
	Blocks  []Block
	// InputTokens is the usage the reply reports (0 = 100), to make the
	// conversation look as full as a test needs.
	InputTokens int
	// CacheRead is the usage's cache_read_input_tokens (Anthropic's
	// input_tokens leave them out).
	CacheRead int
}

// Block is one assistant content block.
type Block struct {
	Text  string
	Tool  string // tool_use name; Text is then unused
	ID    string // tool_use id
	Input any    // tool_use input
}

// Text is a reply of plain text.
func Text(s string) Reply { return Reply{Blocks: []Block{{Text: s}}} }

// ToolUse is a reply that calls one tool.
func ToolUse(id, name string, input any) Reply {
	return Reply{Blocks: []Block{{Tool: name, ID: id, Input: input}}}
}

// APIError is an error reply with the API's error type for status.
func APIError(status int, headers map[string]string) Reply {
	types := map[int]string{400: "invalid_request_error", 401: "authentication_error", 429: "rate_limit_error",
		500: "api_error", 529: "overloaded_error"}
	return Reply{Status: status, Error: types[status], Headers: headers}
}

// Script decides the reply to a /v1/messages request; n counts the
// message requests so far, from 1.
type Script func(n int, r *Request) Reply

// Mock is the Anthropic API on 127.0.0.1.
type Mock struct {
	URL string

	srv    *http.Server
	ln     net.Listener
	mu     sync.Mutex
	script Script
	reqs   []*Request
	n      int
	// onRequest, when set, runs before the reply is chosen (outside the
	// lock), e.g. to deliver a message while the client waits.
	onRequest func(n int, r *Request)
}

// NewMock starts a mock that answers with script.
func NewMock(script Script) (*Mock, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &Mock{ln: ln, script: script, URL: "http://" + ln.Addr().String()}
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve)}
	go func() { _ = m.srv.Serve(ln) }() // ends with ErrServerClosed at Close
	return m, nil
}

// Close stops the server.
func (m *Mock) Close() { _ = m.srv.Close() } // the test is done with it

// SetScript replaces the script (between runs of the client).
func (m *Mock) SetScript(s Script) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.script = s
}

// OnRequest sets a callback run for every /v1/messages request before
// the reply is written.
func (m *Mock) OnRequest(f func(n int, r *Request)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.onRequest = f
}

// Requests returns a copy of every request recorded so far.
func (m *Mock) Requests() []*Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*Request(nil), m.reqs...)
}

// Messages returns the recorded /v1/messages requests.
func (m *Mock) Messages() []*Request {
	var out []*Request
	for _, r := range m.Requests() {
		if r.Path == "/v1/messages" {
			out = append(out, r)
		}
	}
	return out
}

func (m *Mock) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	r := &Request{Method: hr.Method, Path: hr.URL.Path, Body: body}
	if hr.Method == http.MethodPost && r.Path == "/v1/messages" {
		// Parsed before it is published: tests read m.reqs meanwhile.
		parseMessages(r)
	}
	m.mu.Lock()
	m.reqs = append(m.reqs, r)
	m.mu.Unlock()
	switch {
	case hr.Method == http.MethodPost && r.Path == "/v1/messages":
		m.messages(w, r)
	case hr.Method == http.MethodPost && r.Path == "/v1/messages/count_tokens":
		writeJSON(w, 200, map[string]any{"input_tokens": len(body) / 4})
	case hr.Method == http.MethodGet && strings.HasPrefix(r.Path, "/v1/models"):
		writeJSON(w, 200, map[string]any{"data": []any{}, "has_more": false, "first_id": nil, "last_id": nil})
	default:
		writeJSON(w, 404, errorBody("not_found_error", "mock: no such endpoint "+r.Path))
	}
}

func (m *Mock) messages(w http.ResponseWriter, r *Request) {
	m.mu.Lock()
	m.n++
	n, script, hook := m.n, m.script, m.onRequest
	m.mu.Unlock()
	if hook != nil {
		hook(n, r)
	}
	reply := Text("ok")
	if script != nil {
		reply = script(n, r)
	}
	if reply.Status != 0 && reply.Status != 200 {
		for k, v := range reply.Headers {
			w.Header().Set(k, v)
		}
		writeJSON(w, reply.Status, errorBody(reply.Error, fmt.Sprintf("mock %d", reply.Status)))
		return
	}
	m.mu.Lock()
	r.ReportedInput, r.ReportedCacheRead = reply.inputTokens(), reply.CacheRead
	m.mu.Unlock()
	if r.Stream {
		writeStream(w, r.Model, n, reply)
		return
	}
	writeJSON(w, 200, message(r.Model, n, reply))
}

func errorBody(typ, msg string) map[string]any {
	return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // a client gone mid-reply fails its own test
}

// parseMessages fills the parsed fields of a /v1/messages request.
func parseMessages(r *Request) {
	var body struct {
		Model    string          `json:"model"`
		Stream   bool            `json:"stream"`
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if json.Unmarshal(r.Body, &body) != nil {
		return
	}
	r.Model, r.Stream = body.Model, body.Stream
	r.System = flatten(body.System)
	for _, msg := range body.Messages {
		out := Message{Role: msg.Role, Text: flatten(msg.Content)}
		_ = json.Unmarshal(msg.Content, &out.Content) // a plain string has no blocks; Text holds it
		r.Messages = append(r.Messages, out)
	}
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
}

// flatten returns the text in a content value: a string, or the text of
// its text blocks and tool_result contents, joined by newlines.
func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Text != "":
			parts = append(parts, b.Text)
		case b.Type == "tool_result" && len(b.Content) > 0:
			parts = append(parts, flatten(b.Content))
		}
	}
	return strings.Join(parts, "\n")
}

// Text is every text of the request: system, then each message.
func (r *Request) Text() string {
	var b strings.Builder
	b.WriteString(r.System)
	for _, m := range r.Messages {
		b.WriteString("\n")
		b.WriteString(m.Text)
	}
	return b.String()
}

// LastUser is the text of the messages after the last assistant
// message: the user's turn or tool results with whatever the client
// added to them.
func (r *Request) LastUser() string {
	var parts []string
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "assistant"; i-- {
		parts = append([]string{r.Messages[i].Text}, parts...)
	}
	return strings.Join(parts, "\n")
}

// HasToolResult reports whether the messages after the last assistant
// message carry a tool_result for the tool_use id (the client may add
// other messages after the result, e.g. a hook's context).
func (r *Request) HasToolResult(id string) bool {
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "assistant"; i-- {
		if hasResult(r.Messages[i], id) {
			return true
		}
	}
	return false
}

func hasResult(m Message, id string) bool {
	for _, c := range m.Content {
		var b struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
		}
		if json.Unmarshal(c, &b) == nil && b.Type == "tool_result" && b.ToolUseID == id {
			return true
		}
	}
	return false
}

// HasTool reports whether the request offered the model a tool.
func (r *Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t == name {
			return true
		}
	}
	return false
}

func usage(in, out, cacheRead int) map[string]any {
	return map[string]any{"input_tokens": in, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": cacheRead}
}

func stopReason(reply Reply) string {
	for _, b := range reply.Blocks {
		if b.Tool != "" {
			return "tool_use"
		}
	}
	return "end_turn"
}

func contentBlock(b Block, full bool) map[string]any {
	if b.Tool != "" {
		input := b.Input
		if !full || input == nil {
			input = map[string]any{}
		}
		return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Tool, "input": input}
	}
	text := ""
	if full {
		text = b.Text
	}
	return map[string]any{"type": "text", "text": text}
}

// message is the non-streamed answer.
func message(model string, n int, reply Reply) map[string]any {
	var content []any
	for _, b := range reply.Blocks {
		content = append(content, contentBlock(b, true))
	}
	return map[string]any{"id": "msg_mock_" + strconv.Itoa(n), "type": "message", "role": "assistant",
		"model": model, "content": content, "stop_reason": stopReason(reply), "stop_sequence": nil,
		"usage": usage(reply.inputTokens(), 10, reply.CacheRead)}
}

func (reply Reply) inputTokens() int {
	if reply.InputTokens > 0 {
		return reply.InputTokens
	}
	return 100
}

// writeStream answers with the SSE events of a streamed message.
func writeStream(w http.ResponseWriter, model string, n int, reply Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	flusher, _ := w.(http.Flusher)
	event := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	start := message(model, n, Reply{})
	start["content"], start["stop_reason"] = []any{}, nil
	start["usage"] = usage(reply.inputTokens(), 1, reply.CacheRead)
	event("message_start", map[string]any{"type": "message_start", "message": start})
	for i, b := range reply.Blocks {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": contentBlock(b, false)})
		if b.Tool != "" {
			input, _ := json.Marshal(b.Input)
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		} else {
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": b.Text}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stopReason(reply), "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	event("message_stop", map[string]any{"type": "message_stop"})
}
