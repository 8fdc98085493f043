package hooks

import (
	"os"
	"path/filepath"
	"testing"
)

// A user-scope install runs st's hooks in every session, an agent's or
// not. Without an agent a hook on the store has nowhere to record and
// nothing to say, so it reads no transcript; with one it does. The
// payloads and the transcript are the ones Claude Code wrote
// (e2e/claudecode/testdata), for every event that records the context
// fill.
func TestHookWithoutAgentReadsNoTranscript(t *testing.T) {
	env, _ := testEnv(t)
	real, err := os.ReadFile("../e2e/claudecode/testdata/transcript.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := os.WriteFile(transcript, real, 0o644); err != nil {
		t.Fatal(err)
	}
	for event, file := range map[string]string{PostToolUse: "PostToolUse", Stop: "Stop", UserPromptSubmit: "UserPromptSubmit", SessionEnd: "SessionEnd"} {
		payload := recordedPayload(t, file, transcript)
		for _, agent := range []string{"", env.Agent} {
			opt := env
			opt.Agent = agent
			got := opens(t, []string{transcript}, func() { Run(event, payload, opt) })[transcript]
			if (got > 0) != (agent != "") {
				t.Errorf("%s with agent %q opened the transcript %d times", event, agent, got)
			}
		}
	}
}
