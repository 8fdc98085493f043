package hooks

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// A panic while resolving the environment fails open like one in the hook.
func TestServeFailsOpenWhileResolving(t *testing.T) {
	boom := func(*Options) { panic("boom") }
	tests := []struct {
		event      string
		opt        Options
		code       int
		stdout     string
		stderrWant string
	}{
		{SessionStart, Options{}, 2, "", RitualLine},
		{SessionStart, Options{JSON: true}, 0, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"` + strings.TrimSuffix(RitualLine, "\n") + `\n"}}` + "\n", ""},
		{PreToolUse, Options{}, 0, "", ""},
		{StopFailure, Options{Retry: true}, 0, "", ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := Serve(tt.event, tt.opt, boom, strings.NewReader("{}"), &stdout, &stderr)
		if code != tt.code || stdout.String() != tt.stdout || stderr.String() != tt.stderrWant {
			t.Errorf("%s %+v: code %d, stdout %q, stderr %q; want %d, %q, %q",
				tt.event, tt.opt, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.stderrWant)
		}
	}
}

// Hooks that take no payload never wait for stdin; those that do read it.
func TestServeReadsPayloadOnlyWhenTaken(t *testing.T) {
	root := t.TempDir()
	opt := Options{Root: root, Agent: "alice", Now: func() time.Time { return fixed }, ConfigDir: t.TempDir(), StateDir: t.TempDir()}
	for _, event := range []string{SessionStart, PreCompact, CodexSessionStart} {
		stdin, w := io.Pipe() // never written, never closed: a read would block
		done := make(chan struct{})
		go func() {
			Serve(event, opt, nil, stdin, io.Discard, io.Discard)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(StdinBound - 500*time.Millisecond):
			t.Errorf("%s waited for stdin", event)
		}
		w.Close()
	}
	var stdout bytes.Buffer
	in := `{"session_id":"s1","agent_id":"x","agent_type":"Explore"}`
	Serve(SubagentStart, opt, nil, strings.NewReader(in), &stdout, io.Discard)
	if !strings.Contains(stdout.String(), `"hookEventName":"SubagentStart"`) {
		t.Errorf("subagent-start printed %q", stdout.String())
	}
}
