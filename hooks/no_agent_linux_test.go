package hooks

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// opens counts the opens of path while fn runs, by inotify.
func opens(t *testing.T, path string, fn func()) int {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	defer syscall.Close(fd)
	if _, err := syscall.InotifyAddWatch(fd, path, syscall.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	fn()
	buf := make([]byte, 64*syscall.SizeofInotifyEvent)
	n, err := syscall.Read(fd, buf)
	if err == syscall.EAGAIN {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return n / syscall.SizeofInotifyEvent // no names: the watch is on the file
}

// A user-scope install runs st's hooks in every session, an agent's or
// not. Without an agent a hook on the store has nowhere to record and
// nothing to say, so it reads no transcript; with one it does.
func TestHookWithoutAgentReadsNoTranscript(t *testing.T) {
	env, _ := testEnv(t)
	transcript := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := os.WriteFile(transcript, []byte(replyLine("done", 84000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := []byte(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","transcript_path":"` + transcript + `"}`)
	for _, agent := range []string{"", env.Agent} {
		opt := env
		opt.Agent = agent
		want := 0
		if agent != "" {
			want = 1
		}
		for _, event := range []string{PostToolUse, Stop} {
			if got := opens(t, transcript, func() { Run(event, payload, opt) }); (got > 0) != (want > 0) {
				t.Errorf("%s with agent %q opened the transcript %d times", event, agent, got)
			}
		}
	}
}
