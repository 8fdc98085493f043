// The payload: what Claude Code sends a hook on stdin, and the event-log
// line made from it.

package hooks

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/sha256"
)

// Payload holds the stdin fields of a Claude Code hook that st uses
// (claude-code-hooks.md §1.1, §1.2). Unknown fields are ignored.
type Payload struct {
	SessionID      string `json:"session_id"`
	HookEventName  string `json:"hook_event_name"`
	Cwd            string `json:"cwd"`
	TranscriptPath string `json:"transcript_path"`
	AgentID        string `json:"agent_id"`
	AgentType      string `json:"agent_type"`
	// AgentTranscriptPath is a subagent's own transcript (SubagentStop).
	AgentTranscriptPath string `json:"agent_transcript_path"`
	Model               string `json:"model"` // Codex names the session's model in every payload

	Prompt string `json:"prompt"`

	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	ToolUseID    string          `json:"tool_use_id"`
	Error        json.RawMessage `json:"error"`      // a string on PostToolUseFailure and StopFailure
	ErrorType    json.RawMessage `json:"error_type"` // what older scripts read on StopFailure
	ErrorDetails string          `json:"error_details"`
	IsInterrupt  bool            `json:"is_interrupt"`
	DurationMS   float64         `json:"duration_ms"`

	NotificationType string `json:"notification_type"`
	Title            string `json:"title"`
	Message          string `json:"message"`

	Source  string `json:"source"`  // SessionStart
	Reason  string `json:"reason"`  // SessionEnd
	Trigger string `json:"trigger"` // PreCompact

	StopHookActive bool `json:"stop_hook_active"`

	LastAssistantMessage string `json:"last_assistant_message"` // Stop, StopFailure ("API Error: 529 …")

	// Raw is the payload as read, for the prompt spool.
	Raw json.RawMessage `json:"-"`
}

// ParsePayload decodes a hook's stdin. Invalid JSON, or a field of the
// wrong type, gives an empty payload (the hook still runs and records
// what it can) and ok false.
//
// It decodes the object into its members and each member st reads into
// its field, rather than the whole into the struct: encoding/json
// reflects over a struct's 28 fields the first time it meets it, which
// every hook process paid, about 4 % of `st hook stop` (perf record over
// 300 runs). Keys match exactly (the struct decode also took
// "Session_ID"); FuzzParsePayload holds it to the struct decode
// otherwise.
func ParsePayload(data []byte) (p Payload, ok bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil {
		return Payload{}, false
	}
	for key, raw := range members {
		switch field := p.field(key).(type) {
		case nil:
		case *json.RawMessage:
			*field = raw // already a copy, and checked: a megabyte of tool output is not scanned again
		default:
			if json.Unmarshal(raw, field) != nil {
				return Payload{}, false
			}
		}
	}
	p.Raw = data // not a copy: a payload may hold a megabyte of tool output, and nothing changes it once read
	return p, true
}

// field is the field key's member decodes into, nil for a member st
// does not read; TestPayloadFieldsDecoded checks it names every tagged
// field.
func (p *Payload) field(key string) any {
	switch key {
	case "session_id":
		return &p.SessionID
	case "hook_event_name":
		return &p.HookEventName
	case "cwd":
		return &p.Cwd
	case "transcript_path":
		return &p.TranscriptPath
	case "agent_id":
		return &p.AgentID
	case "agent_type":
		return &p.AgentType
	case "agent_transcript_path":
		return &p.AgentTranscriptPath
	case "model":
		return &p.Model
	case "prompt":
		return &p.Prompt
	case "tool_name":
		return &p.ToolName
	case "tool_input":
		return &p.ToolInput
	case "tool_response":
		return &p.ToolResponse
	case "tool_use_id":
		return &p.ToolUseID
	case "error":
		return &p.Error
	case "error_type":
		return &p.ErrorType
	case "error_details":
		return &p.ErrorDetails
	case "is_interrupt":
		return &p.IsInterrupt
	case "duration_ms":
		return &p.DurationMS
	case "notification_type":
		return &p.NotificationType
	case "title":
		return &p.Title
	case "message":
		return &p.Message
	case "source":
		return &p.Source
	case "reason":
		return &p.Reason
	case "trigger":
		return &p.Trigger
	case "stop_hook_active":
		return &p.StopHookActive
	case "last_assistant_message":
		return &p.LastAssistantMessage
	}
	return nil
}

// ToolInput is the part of a tool's input the rules look at.
type ToolInput struct {
	Command      string `json:"command"`
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	URL          string `json:"url"`
	Offset       any    `json:"offset"`
	Limit        any    `json:"limit"`
}

// Input decodes the tool input; fields of other types are left empty.
func (p *Payload) Input() ToolInput {
	var in ToolInput
	if len(p.ToolInput) > 0 {
		var loose map[string]any
		if json.Unmarshal(p.ToolInput, &loose) == nil {
			str := func(k string) string { s, _ := loose[k].(string); return s }
			in = ToolInput{Command: str("command"), FilePath: str("file_path"), NotebookPath: str("notebook_path"),
				Path: str("path"), URL: str("url"), Offset: loose["offset"], Limit: loose["limit"]}
		}
	}
	return in
}

// Target is what a deny rule's pattern and the log's path field look
// at: the command, else the file, notebook or search path, else the URL.
func (in ToolInput) Target() string {
	for _, s := range []string{in.Command, in.FilePath, in.NotebookPath, in.Path, in.URL} {
		if s != "" {
			return s
		}
	}
	return ""
}

// FilePathOf returns the path a tool works on (file_path, notebook_path
// or path).
func (in ToolInput) FilePathOf() string {
	for _, s := range []string{in.FilePath, in.NotebookPath, in.Path} {
		if s != "" {
			return s
		}
	}
	return ""
}

// InputHash is a short fingerprint of a tool input: the same input gives
// the same hash whatever its key order or spacing.
func InputHash(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	canon := []byte(raw)
	if json.Unmarshal(raw, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canon = b
		}
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:6])
}

// scalarText is jq -r of a scalar: a string as is, null and false as "",
// anything else as its JSON text.
func scalarText(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" || s == "false" {
		return ""
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	if s[0] == '{' || s[0] == '[' {
		return ""
	}
	return s
}

// FailureType is a StopFailure's type: error, else error_type, else
// "unknown" (st-compat §7.4, claude-code-hooks.md §1.5), refined by the
// HTTP status Claude Code names in last_assistant_message
// (RefineFailure).
func (p *Payload) FailureType() string {
	typ := "unknown"
	if s := scalarText(p.Error); s != "" {
		typ = s
	} else if s := scalarText(p.ErrorType); s != "" {
		typ = s
	}
	return RefineFailure(typ, p.LastAssistantMessage)
}

// clientEventName is Claude Code's name for the event of `st hook
// <stEvent>` (Gemini CLI's for the one it alone has), or "" for a name st
// does not know. A switch, not a map, so that st builds nothing for it at
// start-up.
func clientEventName(stEvent string) string {
	switch stEvent {
	case "session-start", "codex-session-start", "gemini-session-start":
		return "SessionStart"
	case "session-end":
		return "SessionEnd"
	case "user-prompt-submit":
		return "UserPromptSubmit"
	case "subagent-start":
		return "SubagentStart"
	case "subagent-stop":
		return "SubagentStop"
	case "pre-tool-use", "codex-pre-tool-use", "gemini-before-tool":
		return "PreToolUse"
	case "post-tool-use":
		return "PostToolUse"
	case "post-tool-use-failure":
		return "PostToolUseFailure"
	case "notification", "gemini-notification":
		return "Notification"
	case "stop", "codex-stop":
		return "Stop"
	case "stop-failure":
		return "StopFailure"
	case "pre-compact":
		return "PreCompact"
	case "post-compact":
		return "PostCompact"
	case "gemini-after-agent":
		return "AfterAgent"
	}
	return ""
}

// EventName is the Claude Code name for a hook: the payload's
// hook_event_name when it is a plain identifier, else the name mapped
// from the st event, else the st event itself.
func EventName(stEvent string, p *Payload) string {
	if n := p.HookEventName; n != "" && len(n) <= 40 && isIdent(n) {
		if same := claudeNameOf(n); same != "" {
			n = same
			if n == "PostToolUse" && geminiToolError(p) != "" {
				n = "PostToolUseFailure"
			}
		}
		return n
	}
	if n := clientEventName(stEvent); n != "" {
		return n
	}
	return stEvent
}

// claudeNameOf is Claude Code's name for a Gemini CLI event it names
// otherwise, with the same payload fields (tool_name, tool_input,
// trigger), or "": their lines take Claude Code's name, so that every
// reader of the log (st events, the board, the pre-compact digest,
// traces) reads a Gemini CLI tool call as any other.
func claudeNameOf(geminiEvent string) string {
	switch geminiEvent {
	case "BeforeTool":
		return "PreToolUse"
	case "AfterTool":
		return "PostToolUse"
	case "PreCompress":
		return "PreCompact"
	}
	return ""
}

// geminiToolError is the error of a tool call Gemini CLI's AfterTool
// reports as failed (tool_response.error.message), else "".
func geminiToolError(p *Payload) string {
	var res struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(p.ToolResponse, &res) != nil || res.Error == nil {
		return ""
	}
	return cmp.Or(res.Error.Message, "the tool failed")
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Field caps for the event log.
const (
	CommandChars = 200
	ErrorChars   = 200
	TitleChars   = 120
	MessageChars = 200
)

// NewEvent builds the log line for a hook run. It never copies a prompt
// or a tool's output: only their sizes. HookUS is left for the caller to
// set just before appending.
func NewEvent(name string, p *Payload, now time.Time) *events.Event {
	e := &events.Event{TS: events.Stamp(now), Event: name, Session: events.Cap(p.SessionID, 128)}
	if p.AgentID != "" || name == "SubagentStart" || name == "SubagentStop" {
		e.AgentID = events.Cap(p.AgentID, 128)
		e.AgentType = events.Cap(p.AgentType, 80)
	}
	switch name {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied":
		in := p.Input()
		e.Tool = events.Cap(p.ToolName, 80)
		e.Path = events.Cap(in.FilePathOf(), 1024)
		if in.FilePathOf() == "" && in.URL != "" {
			e.Path = events.Cap(in.URL, 1024)
		}
		e.Command = events.Cap(in.Command, CommandChars)
		e.Input = InputHash(p.ToolInput)
		e.ToolMS = int64(p.DurationMS)
		if name == "PostToolUse" {
			e.Bytes = int64(len(p.ToolResponse))
		}
		if name == "PostToolUseFailure" {
			e.Error = events.Cap(events.FirstLine(cmp.Or(scalarText(p.Error), geminiToolError(p))), ErrorChars)
			e.Interrupt = p.IsInterrupt
		}
	case "UserPromptSubmit":
		e.Bytes = int64(len(p.Prompt))
	case "Notification":
		e.Type = events.Cap(p.NotificationType, 80)
		e.Title = events.Cap(events.FirstLine(p.Title), TitleChars)
		e.Message = events.Cap(events.FirstLine(p.Message), MessageChars)
	case "SessionStart":
		e.Type = events.Cap(p.Source, 80)
	case "SessionEnd":
		e.Type = events.Cap(p.Reason, 80)
	case "PreCompact", "PostCompact":
		e.Type = events.Cap(p.Trigger, 80)
	case "StopFailure":
		e.Error = events.Cap(events.FirstLine(p.FailureType()), ErrorChars)
		if p.AgentID != "" { // a subagent's failure: the API's words are all it leaves
			e.Message = events.Cap(events.FirstLine(strings.TrimSpace(p.LastAssistantMessage)), MessageChars)
		}
	case "SubagentStop":
		e.Message = events.Cap(events.FirstLine(strings.TrimSpace(p.LastAssistantMessage)), MessageChars)
		e.Error = events.Cap(SubagentFailure(p.LastAssistantMessage), ErrorChars)
	}
	return e
}

// SubagentFailure says why a subagent that reached SubagentStop failed,
// or "" when it did not. Claude Code ends a subagent that hits an API
// error with StopFailure (carrying its agent_id), not SubagentStop; a
// SubagentStop whose final reply is the client's "API Error: …" text, or
// that has no reply at all, still failed.
func SubagentFailure(lastMessage string) string {
	last := strings.TrimSpace(lastMessage)
	switch {
	case last == "":
		return "no final reply"
	case strings.HasPrefix(last, "API Error"):
		return events.FirstLine(last)
	}
	return ""
}
