package hooks

import (
	"bytes"
	"encoding/json"
)

// MaxContext caps the text a hook hands Claude Code in one field (the
// harness moves longer strings to a file; claude-code-hooks.md §1.3).
const MaxContext = 9000

// hookSpecific is Claude Code's hookSpecificOutput object; hookEventName
// must equal the event the hook runs for.
type hookSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

type output struct {
	Decision           string        `json:"decision,omitempty"`
	Reason             string        `json:"reason,omitempty"`
	HookSpecificOutput *hookSpecific `json:"hookSpecificOutput,omitempty"`
	SystemMessage      string        `json:"systemMessage,omitempty"`
}

func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // cannot fail for these types
	return buf.Bytes()
}

func capText(s string) string {
	if len(s) <= MaxContext {
		return s
	}
	cut := []rune(s[:MaxContext])
	return string(cut[:len(cut)-1]) + "…"
}

// AdditionalContext is the stdout of a hook adding text next to the
// prompt, the tool result or the subagent's start:
// {"hookSpecificOutput":{"hookEventName":E,"additionalContext":T}}.
func AdditionalContext(event, text string) []byte {
	return encode(output{HookSpecificOutput: &hookSpecific{HookEventName: event, AdditionalContext: capText(text)}})
}

// Deny is a PreToolUse answer refusing the call with a reason:
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":R}}.
func Deny(reason string) []byte {
	return encode(output{HookSpecificOutput: &hookSpecific{HookEventName: "PreToolUse",
		PermissionDecision: "deny", PermissionDecisionReason: capText(reason)}})
}

// SystemMessage is {"systemMessage": M}, a notice shown to the user.
func SystemMessage(msg string) []byte {
	return encode(output{SystemMessage: capText(msg)})
}

// StopContext is a Stop answer that keeps the turn going with text for
// the model, plus an optional notice for the user:
// {"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":T}[,"systemMessage":M]}.
// Claude Code (2.1.328, e2e/claudecode) hands the model T once, as a
// system reminder, and tells the user nothing; {"decision":"block"}
// would put T in the next request twice and report a hook error.
func StopContext(text, systemMessage string) []byte {
	return stopContext("Stop", text, systemMessage)
}

// SubagentStopContext is StopContext for SubagentStop: Claude Code
// (2.1.328) takes the same hookSpecificOutput there and the subagent,
// not the session, goes on with the text (e2e/claudecode).
func SubagentStopContext(text string) []byte {
	return stopContext("SubagentStop", text, "")
}

func stopContext(event, text, systemMessage string) []byte {
	return encode(output{HookSpecificOutput: &hookSpecific{HookEventName: event, AdditionalContext: capText(text)},
		SystemMessage: capText(systemMessage)})
}
