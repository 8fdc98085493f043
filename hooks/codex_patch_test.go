package hooks

import "testing"

// The deny st prints is one Codex takes.
func TestCodexDenyAccepted(t *testing.T) {
	if err := CheckOutput(CodexPreToolUse, Deny("src/a.go is reserved")); err != nil {
		t.Errorf("CheckOutput rejects st's deny: %v", err)
	}
}
