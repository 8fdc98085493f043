package hooks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Gemini CLI's hooks. Its events and payloads are close to Claude
// Code's (session_id, cwd, hook_event_name, tool_name, tool_input), so
// AfterTool, PreCompress and SessionEnd run Claude Code's post-tool-use,
// pre-compact and session-end unchanged. The four below differ in what
// they answer, or in what the payload calls things:
const (
	GeminiSessionStart = "gemini-session-start" // SessionStart: restart context as additionalContext
	GeminiBeforeTool   = "gemini-before-tool"   // BeforeTool: refuse an edit under another agent's reservation
	GeminiAfterAgent   = "gemini-after-agent"   // AfterAgent: announce arrivals once
	GeminiNotification = "gemini-notification"  // Notification: waiting on a human
)

// GeminiEvents lists Gemini CLI's own events, in usage order.
var GeminiEvents = []string{GeminiSessionStart, GeminiBeforeTool, GeminiAfterAgent, GeminiNotification}

// GeminiEditTools are the tools Gemini CLI 0.61.0 edits files with, both
// naming the file in tool_input.file_path.
var GeminiEditTools = []string{"write_file", "replace"}

// GeminiShellTool is Gemini CLI's shell tool; BeforeTool reads what its
// command writes as it does the editors' files.
const GeminiShellTool = "run_shell_command"

// GeminiDeny is a BeforeTool answer refusing the call:
// {"decision":"deny","reason":R}. Gemini CLI hands R to the model as the
// tool's error and the turn goes on; it does not read Claude Code's
// permissionDecision.
func GeminiDeny(reason string) []byte {
	return encode(output{Decision: "deny", Reason: capText(reason)})
}

// geminiBeforeTool refuses a write_file, replace or run_shell_command
// that writes a file under another agent's active exclusive reservation,
// with the reason Claude Code's pre-tool-use gives (writes.go).
func geminiBeforeTool(c *call) Result {
	c.deny = GeminiDeny
	if reason, advice, denied := writesDeny(c, client(Gemini)); denied {
		c.line.Advice = advice
		return Result{Stdout: GeminiDeny(reason)}
	}
	return Result{}
}

// geminiNotification is notification with Gemini CLI's one type,
// ToolPermission (the client asks the person to allow a tool), read as
// Claude Code's permission_prompt: the board, the operator's note and
// notify_operator_on then treat both clients alike.
func geminiNotification(c *call) Result {
	if c.p.NotificationType == "ToolPermission" {
		c.p.NotificationType = "permission_prompt"
		c.line.Type = "permission_prompt"
	}
	if c.p.Title == "" {
		c.p.Title = c.p.Message
	}
	return notification(c)
}

// IsGemini reports whether event is one of Gemini CLI's own hooks.
func IsGemini(event string) bool { return slices.Contains(GeminiEvents, event) }

// checkGemini checks an answer to Gemini CLI: it parses stdout as one
// JSON object (anything else it shows the user as a system message), and
// reads decision as allow, deny or block.
func checkGemini(out []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(out, &obj); err != nil {
		return fmt.Errorf("output for Gemini CLI must be empty or a JSON object: %v", err)
	}
	if err := checkTypes(obj); err != nil {
		return err
	}
	if d, ok := obj["decision"]; ok {
		var s string
		_ = json.Unmarshal(d, &s) // checkTypes made sure it is a string
		if s != "allow" && s != "deny" && s != "block" {
			return fmt.Errorf("decision must be allow, deny or block, not %q", s)
		}
		var reason string
		_ = json.Unmarshal(obj["reason"], &reason) // absent: the zero value is the answer
		if s != "allow" && strings.TrimSpace(reason) == "" {
			return fmt.Errorf("decision %s needs a non-empty reason", s)
		}
	}
	return nil
}
