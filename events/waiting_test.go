package events

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func note(typ string) Event {
	return Event{TS: Stamp(t0), Event: "Notification", Session: "s1", Type: typ, Message: "Q " + typ}
}

func TestWaitingOn(t *testing.T) {
	prompt := Event{TS: Stamp(t0), Event: "UserPromptSubmit"}
	post := Event{TS: Stamp(t0), Event: "PostToolUse"}
	tests := []struct {
		name string
		evs  []Event
		want string
	}{
		{"nothing", nil, ""},
		{"permission prompt last", []Event{post, note("permission_prompt")}, "permission_prompt"},
		{"idle prompt after a stop", []Event{{Event: "Stop"}, note("idle_prompt")}, "idle_prompt"},
		{"answered by a prompt", []Event{note("idle_prompt"), prompt}, ""},
		{"answered by the tool running", []Event{note("permission_prompt"), post}, ""},
		{"non-waiting notification after a waiting one", []Event{note("permission_prompt"), note("auth_success")}, "permission_prompt"},
		{"only a non-waiting notification", []Event{post, note("auth_success")}, ""},
		{"session ended", []Event{note("idle_prompt"), {Event: "SessionEnd"}}, ""},
	}
	for _, tt := range tests {
		w, ok := WaitingOn(tt.evs)
		if got := map[bool]string{true: w.Type, false: ""}[ok]; got != tt.want {
			t.Errorf("%s: WaitingOn = %q, want %q", tt.name, got, tt.want)
		}
		if ok && w.Question() != "Q "+tt.want {
			t.Errorf("%s: question %q", tt.name, w.Question())
		}
	}
}

func TestWaitingFor(t *testing.T) {
	tr, dir := openTree(t)
	ctx := context.Background()
	if _, ok := WaitingFor(tr, "alice"); ok {
		t.Error("waiting with no log")
	}
	n := note("permission_prompt")
	Append(ctx, tr, "alice", &Event{TS: Stamp(t0), Event: "Stop", Session: "old"})
	Append(ctx, tr, "alice", &n)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "alice/events/old.jsonl"), old, old)
	w, ok := WaitingFor(tr, "alice")
	if !ok || w.Session != "s1" || w.Type != "permission_prompt" || w.Since != Stamp(t0) {
		t.Errorf("WaitingFor = %+v, %v", w, ok)
	}
	Append(ctx, tr, "alice", &Event{TS: Stamp(t0), Event: "UserPromptSubmit", Session: "s1"})
	if _, ok := WaitingFor(tr, "alice"); ok {
		t.Error("still waiting after a prompt")
	}
	if _, ok := WaitingFor(nil, "alice"); ok {
		t.Error("waiting on a nil tree")
	}
}
