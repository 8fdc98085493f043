package trace

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// ModelCall is one model request of a session as the client's
// transcript records it: the reply's id, model and token usage, and
// when the request went out and the reply was written.
type ModelCall struct {
	ID         string
	Model      string
	Start, End time.Time
	Usage      Usage
	Tools      []string // the tools the reply called
}

// Usage is a model call's token counts. Input counts every input token,
// those read from and written to a cache included (as the OpenTelemetry
// GenAI conventions define gen_ai.usage.input_tokens); CacheRead and
// CacheCreation are those parts of it.
type Usage struct {
	Input, Output, CacheRead, CacheCreation int64
}

// transcriptLine is what a trace uses of a line of any client's
// transcript: Claude Code's (type assistant, the reply in message),
// Codex's rollout (a token_usage_record per model response, the model in
// turn_context) and Gemini CLI's chat record (a message of type gemini
// with its tokens, rewritten whole each time it changes).
type transcriptLine struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`

	Message *struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"` // a string in a user's line, blocks in a reply's
		Usage   *struct {
			Input         int64 `json:"input_tokens"`
			Output        int64 `json:"output_tokens"`
			CacheRead     int64 `json:"cache_read_input_tokens"`
			CacheCreation int64 `json:"cache_creation_input_tokens"`
		} `json:"usage"`
	} `json:"message"`

	Payload *struct {
		Type       string `json:"type"`
		Model      string `json:"model"`
		Name       string `json:"name"`      // a function_call's or custom_tool_call's tool
		Arguments  string `json:"arguments"` // a function_call's, JSON
		CallID     string `json:"call_id"`
		ResponseID string `json:"response_id"`
		Usage      *struct {
			Input      int64 `json:"input_tokens"` // cached ones included
			Cached     int64 `json:"cached_input_tokens"`
			CacheWrite int64 `json:"cache_write_input_tokens"`
			Output     int64 `json:"output_tokens"`
		} `json:"usage"`
	} `json:"payload"`

	ID        string `json:"id"`
	Model     string `json:"model"`
	ToolCalls []struct {
		Name string `json:"name"`
	} `json:"toolCalls"`
	Tokens *struct {
		Input  int64 `json:"input"` // promptTokenCount: cached ones included
		Output int64 `json:"output"`
		Cached int64 `json:"cached"`
	} `json:"tokens"`
}

// MaxTranscript bounds how much of a transcript a trace reads: a
// longer one gives the model calls of its first MaxTranscript bytes.
const MaxTranscript = 64 << 20

// maxTranscriptLine bounds one line (a tool result can be large); a
// longer line is skipped.
const maxTranscriptLine = 16 << 20

// reply is a model call as one transcript line gives it.
type reply struct {
	id, model string
	usage     Usage
	tools     []string
	whole     bool // the line holds all the call's tools (a chat record message), not only its own blocks'
}

// replyOf reads the model call a line records, if it records one; a
// Codex turn_context line sets the model of the calls after it.
func (l *transcriptLine) replyOf(model *string) (reply, bool) {
	switch {
	case l.Type == "assistant" && l.Message != nil && l.Message.ID != "" && l.Message.Usage != nil:
		m, u := l.Message, l.Message.Usage
		r := reply{id: m.ID, model: m.Model, usage: Usage{Input: u.Input + u.CacheRead + u.CacheCreation, Output: u.Output,
			CacheRead: u.CacheRead, CacheCreation: u.CacheCreation}}
		var blocks []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		_ = json.Unmarshal(m.Content, &blocks) // a reply without blocks called no tool
		for _, b := range blocks {
			if b.Type == "tool_use" && b.Name != "" {
				r.tools = append(r.tools, b.Name)
			}
		}
		return r, true
	case l.Type == "turn_context" && l.Payload != nil:
		*model = l.Payload.Model
	case l.Type == "token_usage_record" && l.Payload != nil && l.Payload.ResponseID != "" && l.Payload.Usage != nil:
		u := l.Payload.Usage
		return reply{id: l.Payload.ResponseID, model: *model, usage: Usage{Input: u.Input, Output: u.Output,
			CacheRead: u.Cached, CacheCreation: u.CacheWrite}}, true
	case l.Type == "gemini" && l.ID != "" && l.Tokens != nil:
		r := reply{id: l.ID, model: l.Model, usage: Usage{Input: l.Tokens.Input, Output: l.Tokens.Output, CacheRead: l.Tokens.Cached}, whole: true}
		for _, c := range l.ToolCalls {
			if c.Name != "" {
				r.tools = append(r.tools, c.Name)
			}
		}
		return r, true
	}
	return reply{}, false
}

// Period is a stretch of time a transcript records: a Codex turn (End
// is zero while it runs).
type Period struct{ Start, End time.Time }

// ToolCall is a tool call as Codex's rollout records it: the tool, its
// command, when the model called it and when its output came back.
type ToolCall struct {
	Name, Command string
	Start, End    time.Time
}

// Transcript is what a trace takes from a client's transcript: the
// model calls, and for Codex, whose hooks log no prompt and no finished
// tool call, its turns and tool calls.
type Transcript struct {
	Calls []ModelCall
	Turns []Period
	Tools []ToolCall
}

// ReadTranscript reads the model calls of a client's transcript (JSON
// lines: Claude Code's, Codex's rollout or Gemini CLI's chat record)
// from r, in the order they were made, at most MaxSpans of them. Lines
// it cannot read are skipped: a transcript is the client's file, not
// st's. A call written again (a reply streamed in several lines, a chat
// record message updated) takes its last line's usage.
func ReadTranscript(r io.Reader) []ModelCall { return readTranscript(r).Calls }

// readTranscript reads the whole of what a trace takes from r, each
// list at most MaxSpans long.
func readTranscript(r io.Reader) Transcript {
	sc := bufio.NewScanner(io.LimitReader(r, MaxTranscript))
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscriptLine)
	var calls []ModelCall
	index := map[string]int{}
	var last time.Time // the newest moment any other line recorded
	var model string   // Codex's model, from its latest turn_context
	var codex codexActivity
	for sc.Scan() {
		var l transcriptLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		codex.see(&l)
		rep, ok := l.replyOf(&model)
		if !ok {
			// A chat record's reply written before its tokens carries
			// the reply's own time, not one before the request.
			if !l.Timestamp.IsZero() && l.Type != "gemini" {
				last = l.Timestamp
			}
			continue
		}
		i, seen := index[rep.id]
		if !seen {
			if len(calls) == MaxSpans {
				continue // the trace could not hold it
			}
			i = len(calls)
			index[rep.id] = i
			start := last
			if start.IsZero() || start.After(l.Timestamp) {
				start = l.Timestamp
			}
			calls = append(calls, ModelCall{ID: rep.id, Start: start})
		}
		c := &calls[i]
		c.Model, c.End, c.Usage = rep.model, l.Timestamp, rep.usage
		if rep.whole {
			c.Tools = rep.tools
		} else {
			c.Tools = append(c.Tools, rep.tools...)
		}
		if c.End.Before(c.Start) {
			c.End = c.Start
		}
		last = l.Timestamp
	}
	return Transcript{Calls: calls, Turns: codex.turns, Tools: codex.tools}
}

// codexActivity gathers a Codex rollout's turns (task_started to
// task_complete) and tool calls (a function_call or custom_tool_call to
// its output, by call_id).
type codexActivity struct {
	turns []Period
	tools []ToolCall
	open  map[string]int // tool calls waiting for their output
}

func (a *codexActivity) see(l *transcriptLine) {
	p, at := l.Payload, l.Timestamp
	if p == nil || at.IsZero() {
		return
	}
	switch {
	case l.Type == "event_msg" && p.Type == "task_started" && len(a.turns) < MaxSpans:
		a.turns = append(a.turns, Period{Start: at}) // no end yet: the turn runs on
	case l.Type == "event_msg" && p.Type == "task_complete" && len(a.turns) > 0:
		a.turns[len(a.turns)-1].End = at
	case l.Type == "response_item" && (p.Type == "function_call" || p.Type == "custom_tool_call") && p.Name != "" && len(a.tools) < MaxSpans:
		var args struct {
			Cmd any `json:"cmd"` // a string, or argv
		}
		_ = json.Unmarshal([]byte(p.Arguments), &args) // no arguments: no command
		if a.open == nil {
			a.open = map[string]int{}
		}
		a.open[p.CallID] = len(a.tools)
		a.tools = append(a.tools, ToolCall{Name: p.Name, Command: commandOf(args.Cmd), Start: at, End: at})
	case l.Type == "response_item" && (p.Type == "function_call_output" || p.Type == "custom_tool_call_output"):
		if i, ok := a.open[p.CallID]; ok && p.CallID != "" {
			a.tools[i].End = at
			delete(a.open, p.CallID)
		}
	}
}

// commandOf is a shell command given as a string or as argv.
func commandOf(cmd any) string {
	switch c := cmd.(type) {
	case string:
		return c
	case []any:
		var words []string
		for _, w := range c {
			if s, ok := w.(string); ok {
				words = append(words, s)
			}
		}
		return strings.Join(words, " ")
	}
	return ""
}
