package hooks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

func testEnv(t *testing.T) (Options, string) {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	return Options{Root: root, Agent: "alice", Now: func() time.Time { return t0 }, Config: DefaultConfig(),
		Knobs: KnobsFrom(func(string) string { return "" })}, root
}

func logLines(t *testing.T, root, session string) []events.Event {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(root, "alice/events", events.FileName(session)))
	var out []events.Event
	for _, l := range events.Lines(data) {
		e, ok := events.Parse(l)
		if !ok {
			t.Fatalf("bad log line %q", l)
		}
		out = append(out, e)
	}
	return out
}

func writeTranscript(t *testing.T, dir string, tokens int) string {
	p := filepath.Join(dir, fmt.Sprintf("transcript-%d.jsonl", tokens))
	os.WriteFile(p, transcript(`{"type":"user"}`, usageLine(tokens, 0, 0, false)), 0o666)
	return p
}

func contextOf(t *testing.T, event string, out []byte) string {
	t.Helper()
	if len(out) == 0 {
		return ""
	}
	validateOutput(t, event, out)
	var o struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	json.Unmarshal(out, &o)
	return o.HookSpecificOutput.AdditionalContext
}

func TestRunUserPromptSubmitContextFill(t *testing.T) {
	env, root := testEnv(t)
	dir := t.TempDir()
	prompt := func(tokens int) string {
		in := fmt.Sprintf(`{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"do it","transcript_path":%q}`, writeTranscript(t, dir, tokens))
		res := Run(UserPromptSubmit, []byte(in), env)
		if res.Code != 0 || len(res.Stderr) != 0 {
			t.Fatalf("res = %+v", res)
		}
		return contextOf(t, "UserPromptSubmit", res.Stdout)
	}
	steps := []struct {
		tokens int
		want   string
	}{
		{50000, ""},
		{125000, "Context is 62% full"},
		{130000, ""},
		{165000, "Context is 82% full"},
		{190000, ""},
	}
	for _, s := range steps {
		if got := prompt(s.tokens); (s.want == "") != (got == "") || !strings.Contains(got, s.want) {
			t.Errorf("%d tokens: context %q, want %q", s.tokens, got, s.want)
		}
	}
	evs := logLines(t, root, "s1")
	if len(evs) != 5 || evs[1].Advice != "context-60" || evs[3].Advice != "context-80" || evs[0].Bytes != 5 {
		t.Errorf("log = %+v", evs)
	}
	env.Config.ContextWindow = 1000000
	if got := prompt(190000); got != "" {
		t.Errorf("big window still warns: %q", got)
	}
}

func TestRunUserPromptSubmitFlushReminder(t *testing.T) {
	env, root := testEnv(t)
	in := []byte(`{"session_id":"s1","prompt":"go"}`)
	if got := contextOf(t, "UserPromptSubmit", Run(UserPromptSubmit, in, env).Stdout); got != "" {
		t.Errorf("reminder with no work: %q", got)
	}
	Run(PostToolUse, []byte(`{"session_id":"s1","tool_name":"Edit","tool_input":{"file_path":"/w/a.go"},"tool_response":{}}`), env)
	if got := contextOf(t, "UserPromptSubmit", Run(UserPromptSubmit, in, env).Stdout); !strings.Contains(got, "now.md has not been written") {
		t.Errorf("first reminder = %q", got)
	}
	if got := Run(UserPromptSubmit, in, env).Stdout; len(got) != 0 {
		t.Errorf("second reminder within 30 min: %s", got)
	}
	env.Now = func() time.Time { return t0.Add(31 * time.Minute) }
	if got := contextOf(t, "UserPromptSubmit", Run(UserPromptSubmit, in, env).Stdout); got == "" {
		t.Error("no reminder after 31 minutes")
	}
	// A fresh now.md silences it.
	os.MkdirAll(filepath.Join(root, "alice/context"), 0o777)
	os.WriteFile(filepath.Join(root, "alice/context/now.md"), []byte("state\n"), 0o666)
	os.Chtimes(filepath.Join(root, "alice/context/now.md"), t0.Add(60*time.Minute), t0.Add(60*time.Minute))
	env.Now = func() time.Time { return t0.Add(70 * time.Minute) }
	if got := Run(UserPromptSubmit, in, env).Stdout; len(got) != 0 {
		t.Errorf("reminder with a fresh now.md: %s", got)
	}
}

func TestRunUserPromptSubmitCapture(t *testing.T) {
	env, root := testEnv(t)
	in := []byte(`{"session_id":"s1","prompt":"secret plan"}`)
	Run(UserPromptSubmit, in, env)
	if _, err := os.Stat(filepath.Join(root, "alice/spool")); err == nil {
		t.Error("spooled without capture_prompts")
	}
	env.Knobs.CapturePrompts = true
	env.Spool = SpoolEnv{Host: "box", TmuxPane: "%3", Entrypoint: "cli"}
	res := Run(UserPromptSubmit, in, env)
	if strings.Contains(string(res.Stdout)+string(res.Stderr), "secret") {
		t.Error("prompt echoed")
	}
	entries, _ := os.ReadDir(filepath.Join(root, "alice/spool"))
	if len(entries) != 1 {
		t.Fatalf("spool holds %d files", len(entries))
	}
	data, _ := os.ReadFile(filepath.Join(root, "alice/spool", entries[0].Name()))
	if !strings.Contains(string(data), `"prompt":"secret plan"`) || !strings.Contains(string(data), `"tmux_pane":"%3"`) {
		t.Errorf("spool = %s", data)
	}
	env.Knobs.HookChild = true
	Run(UserPromptSubmit, in, env)
	env.Knobs = Knobs{}
	env.Config.CapturePrompts = true
	Run(UserPromptSubmit, in, env)
	entries, _ = os.ReadDir(filepath.Join(root, "alice/spool"))
	if len(entries) != 2 {
		t.Errorf("spool holds %d files, want 2 (child skipped, config on)", len(entries))
	}
	for _, e := range logLines(t, root, "s1") {
		if strings.Contains(fmt.Sprint(e), "secret") {
			t.Errorf("log leaks the prompt: %+v", e)
		}
	}
}

func TestRunSubagentStart(t *testing.T) {
	env, _ := testEnv(t)
	res := Run(SubagentStart, []byte(`{"session_id":"s1","agent_id":"x","agent_type":"Explore"}`), env)
	if got := contextOf(t, "SubagentStart", res.Stdout); got != DefaultSubagentContract {
		t.Errorf("contract = %q", got)
	}
	env.Config.SubagentContract = "Answer in one line."
	if got := contextOf(t, "SubagentStart", Run(SubagentStart, []byte(`{}`), env).Stdout); got != "Answer in one line." {
		t.Errorf("configured contract = %q", got)
	}
}

func TestRunPreToolUse(t *testing.T) {
	env, root := testEnv(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.go")
	os.WriteFile(big, make([]byte, 40000), 0o666)
	os.WriteFile(filepath.Join(dir, "small.go"), make([]byte, 100), 0o666)
	env.Config.Deny = []DenyRule{{Tool: "Bash", Pattern: `git\s+push\s+.*--force`, Reason: "No force pushes."}}
	tests := []struct {
		name, payload, want string
	}{
		{"large read", fmt.Sprintf(`{"session_id":"s1","tool_name":"Read","tool_input":{"file_path":%q}}`, big), "additionalContext"},
		{"large read, relative to cwd", fmt.Sprintf(`{"session_id":"s1","cwd":%q,"tool_name":"Read","tool_input":{"file_path":"big.go"}}`, dir), "additionalContext"},
		{"ranged read", fmt.Sprintf(`{"session_id":"s1","tool_name":"Read","tool_input":{"file_path":%q,"limit":100}}`, big), ""},
		{"small read", fmt.Sprintf(`{"session_id":"s1","tool_name":"Read","tool_input":{"file_path":%q}}`, filepath.Join(dir, "small.go")), ""},
		{"denied", `{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"git push origin main --force"}}`, "deny"},
		{"allowed bash", `{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"git push origin main"}}`, ""},
		{"garbage", `not json`, ""},
	}
	for _, tt := range tests {
		res := Run(PreToolUse, []byte(tt.payload), env)
		if res.Code != 0 || len(res.Stderr) != 0 {
			t.Errorf("%s: res = %+v", tt.name, res)
		}
		switch tt.want {
		case "":
			if len(res.Stdout) != 0 {
				t.Errorf("%s: stdout %s", tt.name, res.Stdout)
			}
		case "deny":
			validateOutput(t, "PreToolUse", res.Stdout)
			if !strings.Contains(string(res.Stdout), `"permissionDecision":"deny","permissionDecisionReason":"No force pushes."`) {
				t.Errorf("%s: stdout %s", tt.name, res.Stdout)
			}
		default:
			validateOutput(t, "PreToolUse", res.Stdout)
			if got := contextOf(t, "PreToolUse", res.Stdout); !strings.Contains(got, "40000 bytes (about 10000 tokens)") {
				t.Errorf("%s: context %q", tt.name, got)
			}
			if strings.Contains(string(res.Stdout), "permissionDecision") {
				t.Errorf("%s: a large read must never carry a permission decision", tt.name)
			}
		}
	}
	if n := len(logLines(t, root, "s1")); n != 6 {
		t.Errorf("%d log lines for s1, want 6", n)
	}
	if n := len(logLines(t, root, "")); n != 1 {
		t.Errorf("%d log lines for no-session, want 1", n)
	}
	env.Agent = ""
	if res := Run(PreToolUse, []byte(tests[4].payload), env); len(res.Stdout) != 0 {
		t.Errorf("no agent still answered: %s", res.Stdout)
	}
}

func TestRunPostToolUseFailureThrash(t *testing.T) {
	env, root := testEnv(t)
	failure := `{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"make"},"error":"Exit code 2"}`
	var outs []string
	for range 3 {
		outs = append(outs, contextOf(t, "PostToolUseFailure", Run(PostToolUseFailure, []byte(failure), env).Stdout))
	}
	if outs[0] != "" || outs[1] != "" || !strings.Contains(outs[2], "failed 3 times in a row") {
		t.Errorf("outputs = %q", outs)
	}
	Run(PostToolUse, []byte(`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":"ok"}`), env)
	for range 2 {
		if out := Run(PostToolUseFailure, []byte(failure), env).Stdout; len(out) != 0 {
			t.Errorf("advice after a success broke the streak: %s", out)
		}
	}
	evs := logLines(t, root, "s1")
	if evs[2].Advice != "thrash" || evs[2].Error != "Exit code 2" {
		t.Errorf("third failure logged as %+v", evs[2])
	}
}

func TestRunNotification(t *testing.T) {
	env, root := testEnv(t)
	perm := []byte(`{"session_id":"s1","notification_type":"permission_prompt","title":"Permission needed","message":"Claude needs your permission to use Bash"}`)
	idle := []byte(`{"session_id":"s1","notification_type":"idle_prompt","message":"Claude is waiting for your input"}`)
	if res := Run(Notification, perm, env); len(res.Stdout)+len(res.Stderr) != 0 {
		t.Errorf("notification printed %+v", res)
	}
	Run(Notification, idle, env)
	inbox, _ := os.ReadDir(filepath.Join(root, "operator/inbox"))
	if len(inbox) != 1 {
		t.Fatalf("operator inbox holds %d, want 1", len(inbox))
	}
	data, _ := os.ReadFile(filepath.Join(root, "operator/inbox", inbox[0].Name()))
	if !strings.Contains(string(data), "from: alice") || !strings.Contains(string(data), "agent alice waits: Permission needed") ||
		!strings.Contains(string(data), "Question: Claude needs your permission to use Bash") {
		t.Errorf("message = %s", data)
	}
	env.Operator = "boss"
	env.Config.NotifyOperatorOn = []string{"idle_prompt"}
	Run(Notification, perm, env)
	Run(Notification, idle, env)
	if boss, _ := os.ReadDir(filepath.Join(root, "boss/inbox")); len(boss) != 1 {
		t.Errorf("boss inbox holds %d, want 1", len(boss))
	}
	if w, ok := events.WaitingOn(logLines(t, root, "s1")); !ok || w.Type != "idle_prompt" {
		t.Errorf("waiting = %+v, %v", w, ok)
	}
}

func TestRunStopAndSessionEnd(t *testing.T) {
	env, root := testEnv(t)
	if res := Run(Stop, []byte(`{"session_id":"s1"}`), env); len(res.Stdout) != 0 {
		t.Errorf("stop printed %s", res.Stdout)
	}
	env.Timestamp = true
	res := Run(Stop, []byte(`{"session_id":"s1"}`), env)
	validateOutput(t, "Stop", res.Stdout)
	if want := `{"systemMessage":"⏱ ` + t0.Local().Format("15:04:05") + `"}` + "\n"; string(res.Stdout) != want {
		t.Errorf("stop --timestamp = %s, want %s", res.Stdout, want)
	}
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	os.WriteFile(filepath.Join(root, "alice/status"), []byte("busy\n"), 0o666)
	Run(SessionEnd, []byte(`{"session_id":"s1","reason":"prompt_input_exit"}`), env)
	if data, _ := os.ReadFile(filepath.Join(root, "alice/status")); string(data) != "offline\n" {
		t.Errorf("status = %q", data)
	}
	evs := logLines(t, root, "s1")
	if len(evs) != 3 || evs[2].Event != "SessionEnd" || evs[2].Type != "prompt_input_exit" {
		t.Errorf("log = %+v", evs)
	}
}

func TestRecord(t *testing.T) {
	env, root := testEnv(t)
	env.Start = time.Now().Add(-time.Millisecond)
	Record("session-start", nil, "s9", env)
	Record("stop-failure", []byte(`{"session_id":"s1","error":"billing_error"}`), "ignored", env)
	if evs := logLines(t, root, "s9"); len(evs) != 1 || evs[0].Event != "SessionStart" || evs[0].HookUS < 1000 {
		t.Errorf("s9 log = %+v", evs)
	}
	if evs := logLines(t, root, "s1"); len(evs) != 1 || evs[0].Error != "billing_error" {
		t.Errorf("s1 log = %+v", evs)
	}
	env.Agent = ""
	Record("session-start", nil, "s8", env)
	if _, err := os.Stat(filepath.Join(root, "alice/events/s8.jsonl")); err == nil {
		t.Error("recorded without an agent")
	}
	// A new agent's first lines make its folder (its first turn is on
	// the board), but a hook never creates the store to record an event.
	env.Agent = "bob"
	Record("session-start", nil, "s1", env)
	Run(PostToolUse, []byte(`{"session_id":"s1","tool_name":"Read"}`), env)
	if _, err := os.Stat(filepath.Join(root, "bob", "events", "s1.jsonl")); err != nil {
		t.Errorf("a new agent's first lines were not logged: %v", err)
	}
	env.Root = filepath.Join(root, "nostore")
	Record("session-start", nil, "s1", env)
	Run(PreToolUse, []byte(`{"session_id":"s1","tool_name":"Read"}`), env)
	if _, err := os.Stat(env.Root); err == nil {
		t.Error("recording created the store")
	}
}

func retryEnv(t *testing.T) (Options, string) {
	env, root := testEnv(t)
	env.Knobs.RetryBase = 20 * time.Millisecond
	env.Knobs.RetryMax = 40 * time.Millisecond
	return env, root
}

func TestStopFailureRetry(t *testing.T) {
	env, root := retryEnv(t)
	in := []byte(`{"session_id":"s1","error":"overloaded"}`)
	res := StopFailureRetry(in, env)
	if res.Code != 2 || string(res.Stderr) != RetryLine("overloaded", 1) || len(res.Stdout) != 0 {
		t.Errorf("first retry = %+v", res)
	}
	if res := StopFailureRetry(in, env); res.Code != 2 || !strings.Contains(string(res.Stderr), "retry 2 of 10") {
		t.Errorf("second retry = %+v", res)
	}
	// Each retried failure's line says when the retry is due: within the
	// backoff's bounds after the failure.
	for _, e := range logLines(t, root, "s1") {
		at, _ := e.Time()
		due, err := time.Parse(events.TimeFormat, e.RetryAt)
		if err != nil || due.Before(at) || due.After(at.Add(env.Knobs.RetryMax)) {
			t.Errorf("attempt %d: retry_at %q for a failure at %s", e.Attempt, e.RetryAt, e.TS)
		}
	}
	// Non-transient failures never retry and end the streak.
	if res := StopFailureRetry([]byte(`{"session_id":"s1","error":"billing_error"}`), env); res.Code != 0 || len(res.Stderr) != 0 {
		t.Errorf("billing_error = %+v", res)
	}
	if _, ok := ReadStreak(mustTree(t, root), "alice", "s1"); ok {
		t.Error("streak survived a non-transient failure")
	}
	// The fifth attempt tells the operator; the eleventh gives up.
	var codes []int
	for range 11 {
		codes = append(codes, StopFailureRetry(in, env).Code)
	}
	if want := "[2 2 2 2 2 2 2 2 2 2 0]"; fmt.Sprint(codes) != want {
		t.Errorf("codes = %v, want %s", codes, want)
	}
	ops, _ := os.ReadDir(filepath.Join(root, "operator/inbox"))
	if len(ops) != 2 {
		t.Errorf("operator got %d messages, want 2 (alert, give up)", len(ops))
	}
	if res := StopFailureRetry(in, env); res.Code != 0 || len(res.Stderr) != 0 {
		t.Errorf("after giving up = %+v", res)
	}
	evs := logLines(t, root, "s1")
	if last := evs[len(evs)-1]; last.Event != "StopFailure" || last.Attempt != 12 || last.Error != "overloaded" {
		t.Errorf("last line = %+v", last)
	}
}

func TestStopFailureRetrySupersededByPrompt(t *testing.T) {
	env, _ := retryEnv(t)
	env.Knobs.RetryBase = 10 * time.Second
	env.Knobs.RetryMax = 10 * time.Second
	done := make(chan Result, 1)
	go func() { done <- StopFailureRetry([]byte(`{"session_id":"s1","error":"rate_limit"}`), env) }()
	tr := mustTree(t, env.Root)
	for {
		if _, ok := ReadStreak(tr, "alice", "s1"); ok {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	Run(UserPromptSubmit, []byte(`{"session_id":"s1","prompt":"carry on"}`), env)
	select {
	case res := <-done:
		if res.Code != 0 || len(res.Stderr) != 0 || len(res.Stdout) != 0 {
			t.Errorf("superseded retry = %+v, want silent exit 0", res)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("superseded retry kept sleeping")
	}
}

func TestStopFailureRetrySupersededByNewerFailure(t *testing.T) {
	env, _ := retryEnv(t)
	env.Knobs.RetryBase = 300 * time.Millisecond
	env.Knobs.RetryMax = 300 * time.Millisecond
	first := make(chan Result, 1)
	go func() { first <- StopFailureRetry([]byte(`{"session_id":"s1","error":"overloaded"}`), env) }()
	tr := mustTree(t, env.Root)
	for {
		if _, ok := ReadStreak(tr, "alice", "s1"); ok {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	second := StopFailureRetry([]byte(`{"session_id":"s1","error":"server_error"}`), env)
	if second.Code != 2 || !strings.Contains(string(second.Stderr), "server_error") {
		t.Errorf("newer failure = %+v", second)
	}
	if res := <-first; res.Code != 0 || len(res.Stderr) != 0 {
		t.Errorf("older retry = %+v, want silent exit 0", res)
	}
}

func mustTree(t testing.TB, root string) *fsutil.Tree {
	t.Helper()
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestDigestFor(t *testing.T) {
	env, root := testEnv(t)
	edit := func(sec int, path string) {
		env.Now = func() time.Time { return t0.Add(time.Duration(sec) * time.Second) }
		Run(PostToolUse, []byte(fmt.Sprintf(`{"session_id":"s1","tool_name":"Edit","tool_input":{"file_path":%q},"tool_response":{}}`, path)), env)
	}
	edit(1, "/w/old.go")
	edit(20, "/w/new.go")
	tr := mustTree(t, root)
	got := DigestFor(tr, "alice", t0.Add(10*time.Second))
	if !strings.Contains(got, "- /w/new.go\n") || strings.Contains(got, "old.go") {
		t.Errorf("DigestFor =\n%s", got)
	}
	if got := DigestFor(tr, "bob", time.Time{}); got != "" {
		t.Errorf("DigestFor(no log) = %q", got)
	}
}

// BenchmarkRunPostToolUse is the in-process cost of the hottest hook.
func BenchmarkRunPostToolUse(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	env := Options{Root: root, Agent: "alice", Config: DefaultConfig(), Knobs: KnobsFrom(func(string) string { return "" })}
	in := []byte(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"go test ./..."},"tool_response":{"stdout":"ok"},"duration_ms":1200}`)
	for b.Loop() {
		Run(PostToolUse, in, env)
	}
}

// BenchmarkRunPreToolUseDeny is pre-tool-use with deny rules to compile.
func BenchmarkRunPreToolUseDeny(b *testing.B) {
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	env := Options{Root: root, Agent: "alice", Config: ParseConfig([]byte("deny:\n  - {tool: Bash, pattern: 'rm\\s+-rf', reason: no}\n")),
		Knobs: KnobsFrom(func(string) string { return "" })}
	in := []byte(`{"session_id":"s1","tool_name":"Read","tool_input":{"file_path":"/etc/hostname"}}`)
	for b.Loop() {
		Run(PreToolUse, in, env)
	}
}
