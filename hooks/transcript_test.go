package hooks

import (
	"testing"

	"github.com/smalltalk-go/st/events"
)

// The fill a prompt's hook falls back on is the newest recorded since
// the last compaction, and never a subagent's.
func TestLastRecordedFill(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines []events.Event
		want  int64
		ok    bool
	}{
		{"none", nil, 0, false},
		{"the newest", []events.Event{{Event: "PostToolUse", CtxTokens: 50000}, {Event: "Stop", CtxTokens: 140000}, {Event: "SessionStart"}}, 140000, true},
		{"not across a compaction", []events.Event{{Event: "Stop", CtxTokens: 140000}, {Event: "PreCompact"}}, 0, false},
		{"not a subagent's", []events.Event{{Event: "Stop", CtxTokens: 90000}, {Event: "PostToolUse", AgentID: "a1", CtxTokens: 3000}}, 90000, true},
	} {
		if got, ok := lastRecordedFill(tt.lines); got != tt.want || ok != tt.ok {
			t.Errorf("%s: %d, %v; want %d, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
