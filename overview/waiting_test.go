package overview

import (
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

func TestWaitingNote(t *testing.T) {
	now := time.Date(2026, 7, 21, 10, 5, 0, 0, time.UTC)
	nowMs := float64(now.UnixMilli())
	tests := []struct {
		w    *events.Waiting
		want string
	}{
		{nil, ""},
		{&events.Waiting{Type: "permission_prompt", Title: "Permission needed", Since: "2026-07-21T10:01:00.000Z"}, `  ⏳ waits on a human: permission_prompt "Permission needed" (4m)`},
		{&events.Waiting{Type: "permission_prompt", Message: "Claude needs your permission", Since: "2026-07-21T10:01:00.000Z"}, `  ⏳ waits on a human: permission_prompt "Claude needs your permission" (4m)`},
		{&events.Waiting{Type: "permission_prompt", Message: "Claude needs your permission", Title: "T", Since: "2026-07-21T10:01:00.000Z"}, `  ⏳ waits on a human: permission_prompt "Claude needs your permission" (4m)`},
		{&events.Waiting{Type: "idle_prompt", Since: "2026-07-21T10:04:30.000Z"}, "  ⏳ waits on a human: idle_prompt (30s)"},
		{&events.Waiting{Type: "idle_prompt", Since: "garbage"}, "  ⏳ waits on a human: idle_prompt"},
	}
	for _, tt := range tests {
		if got := waitingNote(tt.w, nowMs); got != tt.want {
			t.Errorf("waitingNote(%+v) = %q, want %q", tt.w, got, tt.want)
		}
	}
}
