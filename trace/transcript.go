package trace

import (
	"bufio"
	"encoding/json"
	"io"
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

// Usage is a model call's token counts as the API reported them.
type Usage struct {
	Input, Output, CacheRead, CacheCreation int64
}

// transcriptLine is what a Claude Code transcript line holds that a
// trace uses. A reply streamed in several content blocks is written as
// several lines with one message id; the last one's usage is the reply's.
type transcriptLine struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Message   struct {
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
}

// MaxTranscript bounds how much of a transcript a trace reads: a
// longer one gives the model calls of its first MaxTranscript bytes.
const MaxTranscript = 64 << 20

// maxTranscriptLine bounds one line (a tool result can be large); a
// longer line is skipped.
const maxTranscriptLine = 16 << 20

// ReadTranscript reads the model calls of a Claude Code transcript
// (JSON lines) from r, in the order they were made. Lines it cannot
// read are skipped: a transcript is the client's file, not st's.
func ReadTranscript(r io.Reader) []ModelCall {
	sc := bufio.NewScanner(io.LimitReader(r, MaxTranscript))
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscriptLine)
	var calls []ModelCall
	index := map[string]int{}
	var last time.Time // the newest moment any line recorded
	for sc.Scan() {
		var l transcriptLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		if l.Type != "assistant" || l.Message.ID == "" || l.Message.Usage == nil {
			if !l.Timestamp.IsZero() {
				last = l.Timestamp
			}
			continue
		}
		i, seen := index[l.Message.ID]
		if !seen {
			i = len(calls)
			index[l.Message.ID] = i
			start := last
			if start.IsZero() || start.After(l.Timestamp) {
				start = l.Timestamp
			}
			calls = append(calls, ModelCall{ID: l.Message.ID, Start: start})
		}
		c := &calls[i]
		c.Model, c.End = l.Message.Model, l.Timestamp
		u := l.Message.Usage
		c.Usage = Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheCreation: u.CacheCreation}
		var blocks []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		_ = json.Unmarshal(l.Message.Content, &blocks) // a reply without blocks called no tool
		for _, b := range blocks {
			if b.Type == "tool_use" && b.Name != "" {
				c.Tools = append(c.Tools, b.Name)
			}
		}
		last = l.Timestamp
	}
	return calls
}
