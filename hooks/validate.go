package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// IsCodex reports whether event is one of the Codex hooks.
func IsCodex(event string) bool {
	return event == CodexSessionStart || event == CodexStop || event == CodexPreToolUse
}

// CheckOutput reports whether stdout is output the harness accepts from
// the hook for event: Claude Code parses stdout starting with "{" as JSON
// whose hookSpecificOutput.hookEventName must equal the event; Codex
// requires nothing, or JSON matching its closed schema for the event.
func CheckOutput(event string, stdout []byte) error {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 {
		return nil
	}
	if IsCodex(event) {
		return checkCodex(clientEventName(event), trimmed)
	}
	if IsGemini(event) {
		return checkGemini(trimmed)
	}
	if trimmed[0] != '{' {
		return nil // plain text: context on SessionStart, debug log elsewhere
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil {
		return fmt.Errorf("stdout starts with { but is not a JSON object: %v", err)
	}
	return checkHSO(clientEventName(event), obj, false)
}

var codexUniversal = []string{"continue", "stopReason", "suppressOutput", "systemMessage"}

func checkCodex(event string, out []byte) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(out, &obj); err != nil {
		return fmt.Errorf("output for Codex must be empty or a JSON object: %v", err)
	}
	allowed := append([]string{}, codexUniversal...)
	switch event {
	case "SessionStart":
		allowed = append(allowed, "hookSpecificOutput")
	case "Stop":
		allowed = append(allowed, "decision", "reason")
	case "PreToolUse":
		allowed = append(allowed, "hookSpecificOutput")
	}
	if err := onlyKeys(obj, allowed); err != nil {
		return err
	}
	if err := checkTypes(obj); err != nil {
		return err
	}
	if d, ok := obj["decision"]; ok {
		var s string
		if json.Unmarshal(d, &s) != nil || s != "block" {
			return fmt.Errorf("decision must be \"block\"")
		}
		var reason string
		_ = json.Unmarshal(obj["reason"], &reason) // absent or malformed: the zero value is the answer
		if strings.TrimSpace(reason) == "" {
			return fmt.Errorf("decision:block needs a non-empty reason")
		}
	}
	return checkHSO(event, obj, true)
}

func checkTypes(obj map[string]json.RawMessage) error {
	kinds := map[string]string{"continue": "bool", "suppressOutput": "bool", "stopReason": "string",
		"systemMessage": "string", "reason": "string", "decision": "string"}
	for k, want := range kinds {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		var v any
		_ = json.Unmarshal(raw, &v) // absent or malformed: the zero value is the answer
		switch v.(type) {
		case bool:
			if want == "bool" {
				continue
			}
		case string:
			if want == "string" {
				continue
			}
		}
		return fmt.Errorf("%s must be a %s", k, want)
	}
	return nil
}

func checkHSO(event string, obj map[string]json.RawMessage, closed bool) error {
	raw, ok := obj["hookSpecificOutput"]
	if !ok {
		return nil
	}
	var hso map[string]json.RawMessage
	if err := json.Unmarshal(raw, &hso); err != nil {
		return fmt.Errorf("hookSpecificOutput must be an object")
	}
	var name string
	_ = json.Unmarshal(hso["hookEventName"], &name) // absent or malformed: the zero value is the answer
	if name != event {
		return fmt.Errorf("hookSpecificOutput.hookEventName is %q, want %q", name, event)
	}
	if closed && event == "PreToolUse" {
		return checkCodexDeny(hso)
	}
	if closed {
		if err := onlyKeys(hso, []string{"hookEventName", "additionalContext"}); err != nil {
			return fmt.Errorf("hookSpecificOutput: %v", err)
		}
	}
	if ac, ok := hso["additionalContext"]; ok {
		var s string
		if err := json.Unmarshal(ac, &s); err != nil {
			return fmt.Errorf("additionalContext must be a string")
		}
		if len(s) >= 10000 {
			return fmt.Errorf("additionalContext is %d bytes, over Claude Code's 10,000-character cap", len(s))
		}
	}
	return nil
}

func onlyKeys(obj map[string]json.RawMessage, allowed []string) error {
	var extra []string
	for k := range obj {
		found := false
		for _, a := range allowed {
			found = found || a == k
		}
		if !found {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("unknown keys %s (Codex rejects the output)", strings.Join(extra, ", "))
	}
	return nil
}

// checkCodexDeny accepts the one PreToolUse answer st gives Codex: a
// deny with a non-empty reason. Codex rejects a bare allow and ask.
func checkCodexDeny(hso map[string]json.RawMessage) error {
	if err := onlyKeys(hso, []string{"hookEventName", "permissionDecision", "permissionDecisionReason"}); err != nil {
		return fmt.Errorf("hookSpecificOutput: %v", err)
	}
	var decision, reason string
	_ = json.Unmarshal(hso["permissionDecision"], &decision)     // absent or malformed: the zero value is the answer
	_ = json.Unmarshal(hso["permissionDecisionReason"], &reason) // absent or malformed: the zero value is the answer
	if decision != "deny" {
		return fmt.Errorf("permissionDecision must be \"deny\" (Codex rejects allow without updatedInput, and ask)")
	}
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("a deny needs a non-empty permissionDecisionReason")
	}
	return nil
}
