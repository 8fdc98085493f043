package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExtraEventsOutputsAreAccepted runs every hook beyond the session
// boundaries on its sample
// payload, in the situations where it speaks, and checks its stdout with
// the same validator the doctor uses.
func TestExtraEventsOutputsAreAccepted(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, make([]byte, 100000), 0o666)
	transcript := filepath.Join(dir, "t.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"assistant","message":{"usage":{"input_tokens":170000,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`+"\n"), 0o666)
	cfg := DefaultConfig()
	cfg.Deny = []DenyRule{{Tool: "Bash", Pattern: "rm -rf", Reason: "no <rm> & \"friends\""}}
	env := Options{Root: root, Agent: "alice", Now: func() time.Time { return fixed }, Config: cfg,
		Knobs: KnobsFrom(func(string) string { return "" }), Timestamp: true}
	payloads := map[string][]string{
		UserPromptSubmit: {string(Sample(UserPromptSubmit)),
			`{"session_id":"s1","prompt":"x","transcript_path":"` + transcript + `"}`},
		PreToolUse: {string(Sample(PreToolUse)),
			`{"session_id":"s1","tool_name":"Read","tool_input":{"file_path":"` + big + `"}}`,
			`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
		PostToolUseFailure: {string(Sample(PostToolUseFailure)), string(Sample(PostToolUseFailure)),
			string(Sample(PostToolUseFailure))},
	}
	spoke := 0
	for _, event := range ExtraEvents {
		ins := payloads[event]
		if ins == nil {
			ins = []string{string(Sample(event))}
		}
		for _, in := range ins {
			if !strings.Contains(string(Sample(event)), `"hook_event_name"`) {
				t.Errorf("no sample payload for %s", event)
			}
			r := Run(event, []byte(in), env)
			if err := CheckOutput(event, r.Stdout); err != nil {
				t.Errorf("%s: %v\n%s", event, err, r.Stdout)
			}
			if len(r.Stdout) > 0 {
				spoke++
			}
		}
	}
	if spoke < 6 {
		t.Errorf("only %d hook runs printed something; the check saw too little", spoke)
	}
}
