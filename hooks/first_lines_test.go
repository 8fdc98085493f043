package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A new agent's first turn is on the board: with the store there but no
// folder for the agent yet (the first Stop used to make it), its
// session-start, prompt and tool calls are logged, and the agent's
// folder is made as st makes it.
func TestNewAgentsFirstTurnIsLogged(t *testing.T) {
	opt, root := bareStore(t)
	opt.Session = "s1"
	Run(SessionStart, nil, opt)
	Run(UserPromptSubmit, []byte(`{"session_id":"s1","prompt":"hi"}`), opt)
	Run(PreToolUse, []byte(`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`), opt)
	Run(PostToolUse, []byte(`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"},"duration_ms":12}`), opt)
	var got []string
	for _, e := range logLines(t, root, "s1") {
		got = append(got, e.Event+":"+e.Tool)
	}
	if want := "SessionStart: UserPromptSubmit: PreToolUse:Bash PostToolUse:Bash"; strings.Join(got, " ") != want {
		t.Errorf("the first turn's lines: %q, want %q", strings.Join(got, " "), want)
	}
	for _, dir := range []string{"inbox", "archive"} {
		if fi, err := os.Stat(filepath.Join(root, "alice", dir)); err != nil || !fi.IsDir() {
			t.Errorf("alice/%s was not made: %v", dir, err)
		}
	}
}

// bareStore is a store with no agent in it, and alice's options.
func bareStore(t *testing.T) (Options, string) {
	t.Helper()
	opt := testOptions(t)
	opt.Config = DefaultConfig()
	if err := os.MkdirAll(opt.Root, 0o777); err != nil {
		t.Fatal(err)
	}
	return opt, opt.Root
}

// geminiPayload is a payload the real Gemini CLI sent (e2e/gemini).
func geminiPayload(t *testing.T, event string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "e2e", "gemini", "testdata", "payloads", event+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Gemini CLI's BeforeTool and AfterTool lines name the tool and its
// file as Claude Code's do (under Claude Code's event names, which every
// reader of the log knows), and its PreCompress then gets the digest of
// the files written.
func TestGeminiToolLinesNameTheTool(t *testing.T) {
	opt, root := bareStore(t)
	if err := os.MkdirAll(filepath.Join(root, "alice", "inbox"), 0o777); err != nil {
		t.Fatal(err)
	}
	const session = "edd1f3b3-d0a1-47a0-a68f-8c1c06ef8b8f"
	Run(GeminiBeforeTool, geminiPayload(t, "BeforeTool"), opt)
	Run(PostToolUse, geminiPayload(t, "AfterTool"), opt)
	Run(PostToolUse, []byte(`{"session_id":"`+session+`","hook_event_name":"AfterTool","tool_name":"run_shell_command",`+
		`"tool_input":{"command":"false"},"tool_response":{"llmContent":"","error":{"message":"exit code 1","type":"execution_failed"}}}`), opt)
	var got []string
	for _, e := range logLines(t, root, session) {
		got = append(got, e.Event+" "+e.Tool+" "+e.Path+e.Command+" "+e.Error)
	}
	want := []string{
		"PreToolUse write_file /home/user/proj/notes.txt ",
		"PostToolUse write_file /home/user/proj/notes.txt ",
		"PostToolUseFailure run_shell_command false exit code 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Gemini CLI's tool lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	opt.Session = session
	Run(PreCompact, geminiPayload(t, "PreCompress"), opt)
	now, _ := os.ReadFile(filepath.Join(root, "alice", "context", "now.md"))
	if !strings.Contains(string(now), digestHead) || !strings.Contains(string(now), "/home/user/proj/notes.txt") {
		t.Errorf("PreCompress left no digest of the file written:\n%s", now)
	}
}
