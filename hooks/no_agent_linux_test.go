package hooks

import (
	"bytes"
	"encoding/json"
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

// recordedPayload is Claude Code's recorded payload of event with its
// transcript_path set to transcript and every other member as recorded.
func recordedPayload(t *testing.T, event, transcript string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../e2e/claudecode/testdata/payloads", event+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		t.Fatal(err)
	}
	if _, ok := members["transcript_path"]; !ok {
		t.Fatalf("%s.json has no transcript_path", event)
	}
	members["transcript_path"], _ = json.Marshal(transcript)
	var out bytes.Buffer
	if err := json.NewEncoder(&out).Encode(members); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}
