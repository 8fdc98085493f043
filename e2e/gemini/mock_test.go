package gemini

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

// mockAPI is a scripted Gemini API (generativelanguage v1beta): every
// generateContent and streamGenerateContent request is recorded and
// answered by the next reply of the script (streamed as server-sent
// events for the streaming form). The client's own JSON side requests
// (the model router's complexity score) get a fixed JSON answer and are
// kept apart from the conversation's requests.
type mockAPI struct {
	t      testing.TB
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []apiRequest // the conversation's requests
	side   []apiRequest // JSON-schema side requests
	other  []string     // any other path the client asked for
	script func(n int, req apiRequest) reply
}

// apiRequest is one request the client sent.
type apiRequest struct {
	Path string
	Raw  string
	Body map[string]any
}

// reply is one model answer: text, or a function call, with its token
// usage (nil: 10 in, 5 out).
type reply struct {
	Text  string
	Call  string
	Args  map[string]any
	Usage *usage
}

// usage is an answer's usageMetadata: the prompt's tokens (the cached
// ones included, as the API counts them), the cached ones, the answer's.
type usage struct {
	Prompt, Cached, Output int
}

func say(text string) reply { return reply{Text: text} }

func call(name string, args map[string]any) reply { return reply{Call: name, Args: args} }

func newMockAPI(t testing.TB, script func(n int, req apiRequest) reply) *mockAPI {
	m := &mockAPI{t: t, script: script}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve)) // 127.0.0.1:0
	t.Cleanup(m.srv.Close)
	return m
}

// BaseURL is what GOOGLE_GEMINI_BASE_URL takes.
func (m *mockAPI) BaseURL() string { return m.srv.URL }

// Requests returns the conversation's requests so far.
func (m *mockAPI) Requests() []apiRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]apiRequest(nil), m.reqs...)
}

// Side returns the side requests and the other paths asked for.
func (m *mockAPI) Side() (side []apiRequest, other []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]apiRequest(nil), m.side...), append([]string(nil), m.other...)
}

func (m *mockAPI) serve(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	gen := strings.HasSuffix(path, ":generateContent")
	stream := strings.HasSuffix(path, ":streamGenerateContent")
	if r.Method != http.MethodPost || !gen && !stream {
		m.mu.Lock()
		m.other = append(m.other, r.Method+" "+r.URL.String())
		m.mu.Unlock()
		if strings.HasSuffix(path, ":countTokens") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"totalTokens": 100}`)
			return
		}
		http.Error(w, `{"error":{"code":404,"message":"not found","status":"NOT_FOUND"}}`, http.StatusNotFound)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	req := apiRequest{Path: path, Raw: string(raw)}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		m.t.Errorf("mock: request is not JSON (%v): %.200s", err, raw)
	}
	var parts []map[string]any
	var rep reply
	if cfg, _ := req.Body["generationConfig"].(map[string]any); cfg["responseMimeType"] == "application/json" {
		m.mu.Lock()
		m.side = append(m.side, req)
		m.mu.Unlock()
		parts = []map[string]any{{"text": `{"complexity_reasoning":"a small task","complexity_score":10}`}}
	} else {
		m.mu.Lock()
		n := len(m.reqs)
		m.reqs = append(m.reqs, req)
		m.mu.Unlock()
		rep = say("done")
		if m.script != nil {
			rep = m.script(n, req)
		}
		if rep.Call != "" {
			parts = []map[string]any{{"functionCall": map[string]any{"name": rep.Call, "args": rep.Args}}}
		} else {
			parts = []map[string]any{{"text": rep.Text}}
		}
	}
	use := map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
	if u := rep.Usage; u != nil {
		use = map[string]any{"promptTokenCount": u.Prompt, "cachedContentTokenCount": u.Cached,
			"candidatesTokenCount": u.Output, "totalTokenCount": u.Prompt + u.Output}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": use,
		"modelVersion":  "mock",
	}
	data, _ := json.Marshal(resp)
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\r\n\r\n", data)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// ToolNames lists the function declarations the request offers.
func (r apiRequest) ToolNames() []string {
	var out []string
	tools, _ := r.Body["tools"].([]any)
	for _, t := range tools {
		decls, _ := t.(map[string]any)["functionDeclarations"].([]any)
		for _, d := range decls {
			if name, ok := d.(map[string]any)["name"].(string); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

// LastFunctionResponse is the text of the last functionResponse part of
// the request, as JSON ("" when none).
func (r apiRequest) LastFunctionResponse() string {
	out := ""
	contents, _ := r.Body["contents"].([]any)
	for _, c := range contents {
		parts, _ := c.(map[string]any)["parts"].([]any)
		for _, p := range parts {
			if fr, ok := p.(map[string]any)["functionResponse"]; ok {
				data, _ := json.Marshal(fr)
				out = string(data)
			}
		}
	}
	return out
}
