package events

import (
	"strconv"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// Marshal encodes e as one log line, ending in "\n", with its fields in
// the order of the struct and the empty optional ones left out: what
// encoding/json writes for Event, less its one difference in escaping
// (U+2028 and U+2029 stay as they are, as JSON.stringify leaves them).
// It is written out by hand because every hook writes one line, and
// encoding/json's first use of the type cost each hook about 130 k
// instructions, a tenth of its start (callgrind, `st hook session-start`).
// FuzzMarshal holds it to encoding/json.
func Marshal(e *Event) ([]byte, error) {
	b := make([]byte, 0, 256)
	b = append(b, `{"ts":`...)
	b = jsstr.AppendString(b, e.TS)
	b = append(b, `,"event":`...)
	b = jsstr.AppendString(b, e.Event)
	b = append(b, `,"session":`...)
	b = jsstr.AppendString(b, e.Session)
	b = appendText(b, "agent_id", e.AgentID)
	b = appendText(b, "agent_type", e.AgentType)
	b = appendText(b, "tool", e.Tool)
	b = appendText(b, "path", e.Path)
	b = appendText(b, "command", e.Command)
	b = appendText(b, "input", e.Input)
	b = appendInt(b, "bytes", e.Bytes)
	b = appendInt(b, "tool_ms", e.ToolMS)
	b = appendText(b, "error", e.Error)
	if e.Interrupt {
		b = append(b, `,"interrupt":true`...)
	}
	b = appendText(b, "type", e.Type)
	b = appendText(b, "title", e.Title)
	b = appendText(b, "message", e.Message)
	b = appendText(b, "advice", e.Advice)
	b = appendInt(b, "attempt", int64(e.Attempt))
	b = appendText(b, "retry_at", e.RetryAt)
	b = appendInt(b, "ctx_tokens", e.CtxTokens)
	b = appendInt(b, "ctx_window", e.CtxWindow)
	b = appendText(b, "model", e.Model)
	b = appendText(b, "transcript", e.Transcript)
	b = appendText(b, "cwd", e.Cwd)
	b = appendText(b, "host", e.Host)
	b = appendText(b, "pane", e.Pane)
	b = appendText(b, "via", e.Via)
	b = appendText(b, "judge", e.Judge)
	b = append(b, `,"hook_us":`...)
	b = strconv.AppendInt(b, e.HookUS, 10)
	return append(b, "}\n"...), nil
}

// appendText appends an omitempty string field.
func appendText(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(append(append(b, `,"`...), key...), `":`...)
	return jsstr.AppendString(b, v)
}

// appendInt appends an omitempty integer field.
func appendInt(b []byte, key string, v int64) []byte {
	if v == 0 {
		return b
	}
	b = append(append(append(b, `,"`...), key...), `":`...)
	return strconv.AppendInt(b, v, 10)
}

// MarshalLog is evs as the lines of a session log, in order.
func MarshalLog(evs []Event) ([]byte, error) {
	var out []byte
	for i := range evs {
		b, err := Marshal(&evs[i])
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}
