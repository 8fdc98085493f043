package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

var t0 = time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)

func openTree(t testing.TB) (*fsutil.Tree, string) {
	t.Helper()
	dir := t.TempDir()
	return mustTree(t, dir), dir
}

func payload(t *testing.T, js string) Payload {
	t.Helper()
	p, ok := ParsePayload([]byte(js))
	if !ok {
		t.Fatalf("bad payload %s", js)
	}
	return p
}

func TestNewEvent(t *testing.T) {
	longCmd := strings.Repeat("x", 250)
	tests := []struct {
		name, stEvent, payload, want string
	}{
		{"post tool use", "post-tool-use",
			`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"/w/a.go"},"tool_response":{"content":"12345"},"duration_ms":12}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"PostToolUse","session":"s1","tool":"Read","path":"/w/a.go","input":"ID","bytes":19,"tool_ms":12,"hook_us":0}`},
		{"bash command capped at 200", "pre-tool-use",
			`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"` + longCmd + `"}}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"PreToolUse","session":"s1","tool":"Bash","command":"` + longCmd[:200] + `","input":"ID","hook_us":0}`},
		{"failure keeps the first line of the error", "post-tool-use-failure",
			`{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"go vet"},"error":"Exit code 1\nsecret output","is_interrupt":false}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"PostToolUseFailure","session":"s1","tool":"Bash","command":"go vet","input":"ID","error":"Exit code 1","hook_us":0}`},
		{"prompt: only its size", "user-prompt-submit",
			`{"session_id":"s1","prompt":"my secret prompt"}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"UserPromptSubmit","session":"s1","bytes":16,"hook_us":0}`},
		{"notification", "notification",
			`{"session_id":"s1","notification_type":"permission_prompt","title":"Permission needed","message":"Claude needs your permission to use Bash"}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"Notification","session":"s1","type":"permission_prompt","title":"Permission needed","message":"Claude needs your permission to use Bash","hook_us":0}`},
		{"stop failure reads error", "stop-failure",
			`{"session_id":"s1","error":"rate_limit","error_details":"429"}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"StopFailure","session":"s1","error":"rate_limit","hook_us":0}`},
		{"stop failure falls back to error_type", "stop-failure",
			`{"session_id":"s1","error_type":"overloaded"}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"StopFailure","session":"s1","error":"overloaded","hook_us":0}`},
		{"subagent start", "subagent-start",
			`{"session_id":"s1","agent_id":"a1","agent_type":"Explore"}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"SubagentStart","session":"s1","agent_id":"a1","agent_type":"Explore","hook_us":0}`},
		{"session end reason, no session id", "session-end",
			`{"reason":"clear"}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"SessionEnd","session":"","type":"clear","hook_us":0}`},
		{"odd hook_event_name ignored", "stop",
			`{"session_id":"s1","hook_event_name":"../x"}`,
			`{"ts":"2026-07-21T10:00:00.000Z","event":"Stop","session":"s1","hook_us":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := payload(t, tt.payload)
			e := NewEvent(EventName(tt.stEvent, &p), &p, t0)
			line, _ := events.Marshal(e)
			want := strings.Replace(tt.want, `"input":"ID"`, `"input":"`+InputHash(p.ToolInput)+`"`, 1)
			if got := strings.TrimSuffix(string(line), "\n"); got != want {
				t.Errorf("line =\n%s\nwant\n%s", got, want)
			}
			if strings.Contains(string(line), "secret") {
				t.Errorf("line leaks prompt or output: %s", line)
			}
		})
	}
}

func TestInputHash(t *testing.T) {
	a := InputHash(json.RawMessage(`{"command":"ls","description":"list"}`))
	b := InputHash(json.RawMessage(`{ "description": "list", "command": "ls" }`))
	c := InputHash(json.RawMessage(`{"command":"ls -l"}`))
	if a != b || a == c || len(a) != 12 || InputHash(nil) != "" {
		t.Errorf("InputHash: %q %q %q", a, b, c)
	}
	// The hash is SHA-256's first 6 bytes of the canonical input, as
	// earlier versions wrote it into the log that thrash detection reads.
	if h := InputHash(json.RawMessage(`{"b":1,"a":2}`)); h != "d3626ac30a87" {
		t.Errorf("InputHash = %s, want d3626ac30a87", h)
	}
}

func TestParsePayloadInvalid(t *testing.T) {
	if _, ok := ParsePayload([]byte("not json")); ok {
		t.Error("accepted invalid JSON")
	}
	p, ok := ParsePayload([]byte(`{"tool_input":"a string"}`))
	if !ok || p.Input().Target() != "" {
		t.Errorf("string tool_input: %+v", p.Input())
	}
}

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name, yaml string
		check      func(Config) string
	}{
		{"empty", "", func(c Config) string {
			if c.ContextWindow != 200000 || len(c.NotifyOperatorOn) != 1 || c.NotifyOperatorOn[0] != "permission_prompt" || c.CapturePrompts {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"all keys", `
operator: boss
capture_prompts: true
context_window: 1000000
subagent_contract: "Be brief."
deny:
  - tool: Bash
    pattern: 'rm -rf /'
    reason: no
notify_operator_on: [permission_prompt, idle_prompt]
`, func(c Config) string {
			if c.Operator != "boss" || !c.CapturePrompts || c.ContextWindow != 1000000 || c.SubagentContract != "Be brief." ||
				len(c.Deny) != 1 || c.Deny[0].Pattern != "rm -rf /" || len(c.NotifyOperatorOn) != 2 {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"a bad key keeps its default, the rest count", "context_window: lots\noperator: boss\n", func(c Config) string {
			if c.ContextWindow != 200000 || c.Operator != "boss" {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"empty notify list turns notes off", "notify_operator_on: []\n", func(c Config) string {
			if len(c.NotifyOperatorOn) != 0 {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"not a mapping", "- a\n- b\n", func(c Config) string {
			if c.ContextWindow != 200000 {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"invalid yaml", "deny: [\n", func(c Config) string {
			if c.ContextWindow != 200000 || c.Deny != nil {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
	}
	for _, tt := range tests {
		if msg := tt.check(ParseConfig([]byte(tt.yaml))); msg != "" {
			t.Errorf("%s: got %s", tt.name, msg)
		}
	}
	dir := t.TempDir()
	if c := LoadConfig(dir); c.ContextWindow != DefaultContextWindow {
		t.Errorf("LoadConfig(missing) = %+v", c)
	}
	os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("operator: ops\n"), 0o666)
	if c := LoadConfig(dir); c.Recipient("") != "ops" || c.Recipient("env") != "env" || DefaultConfig().Recipient("") != "operator" {
		t.Errorf("Recipient wrong: %+v", c)
	}
}

func TestKnobs(t *testing.T) {
	env := map[string]string{"ST_FLUSH_REMIND_S": "60", "ST_LARGE_READ_BYTES": "1000", "ST_RETRY_BASE_S": "0.25",
		"ST_RETRY_MAX_S": "bogus", "ST_CAPTURE_PROMPTS": "1", "ST_HOOK_CHILD": "0"}
	k := KnobsFrom(func(s string) string { return env[s] })
	want := Knobs{FlushRemind: time.Minute, LargeRead: 1000, RetryBase: 250 * time.Millisecond, RetryMax: DefaultRetryMax, CapturePrompts: true}
	if k != want {
		t.Errorf("KnobsFrom = %+v, want %+v", k, want)
	}
	d := KnobsFrom(func(string) string { return "" })
	if d.FlushRemind != DefaultFlushRemind || d.LargeRead != DefaultLargeRead || d.RetryBase != DefaultRetryBase {
		t.Errorf("defaults = %+v", d)
	}
	if n := KnobsFrom(func(string) string { return "-5" }); n.RetryBase != DefaultRetryBase || n.LargeRead != DefaultLargeRead {
		t.Errorf("negative = %+v", n)
	}
}

func transcript(lines ...string) []byte { return []byte(strings.Join(lines, "\n") + "\n") }

func usageLine(in, create, read int, side bool) string {
	return fmt.Sprintf(`{"type":"assistant","isSidechain":%v,"message":{"role":"assistant","usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":500}}}`, side, in, create, read)
}

func TestContextUsage(t *testing.T) {
	tests := []struct {
		name string
		tail []byte
		want int64
		ok   bool
	}{
		{"latest main-thread record wins", transcript(usageLine(10, 0, 0, false), `{"type":"user","message":{"content":"hi"}}`, usageLine(100, 20, 3000, false)), 3120, true},
		{"sidechain skipped", transcript(usageLine(1000, 0, 0, false), usageLine(5, 0, 0, true)), 1000, true},
		{"zero record skipped", transcript(usageLine(700, 0, 0, false), usageLine(0, 0, 0, false)), 700, true},
		{"cut first line skipped", []byte(`ut_tokens":99999}}}` + "\n" + `{"type":"user"}` + "\n"), 0, false},
		{"no final newline", []byte(usageLine(42, 0, 0, false)), 42, true},
		{"nothing", nil, 0, false},
		{"junk", []byte("\x00\x00\n{\"usage\": broken\n"), 0, false},
	}
	for _, tt := range tests {
		got, _, ok := ContextUsage(tt.tail)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: ContextUsage = %d, %v; want %d, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestReadTranscriptTail(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.jsonl")
	big := strings.Repeat(`{"type":"user","message":{"content":"padding padding padding"}}`+"\n", 5000) + usageLine(150000, 0, 0, false) + "\n"
	os.WriteFile(p, []byte(big), 0o666)
	tail, err := ReadTranscriptTail(p, TranscriptTail)
	if err != nil || len(tail) != TranscriptTail {
		t.Fatalf("ReadTranscriptTail = %d bytes, %v", len(tail), err)
	}
	if n, _, ok := ContextUsage(tail); !ok || n != 150000 {
		t.Errorf("ContextUsage(tail) = %d, %v", n, ok)
	}
	if _, err := ReadTranscriptTail(dir, 10); err == nil {
		t.Error("read a folder")
	}
	if _, err := ReadTranscriptTail(filepath.Join(dir, "missing"), 10); err == nil {
		t.Error("read a missing file")
	}
}

func TestContextAdvice(t *testing.T) {
	tests := []struct {
		tokens         int64
		window, warned int
		wantLevel      int
		wantText       bool
	}{
		{100000, 200000, 0, 0, false},
		{119999, 200000, 0, 0, false},
		{120000, 200000, 0, 60, true},
		{130000, 200000, 60, 60, false},
		{160000, 200000, 60, 80, true},
		{170000, 200000, 0, 80, true},
		{190000, 200000, 80, 80, false},
		{600000, 1000000, 0, 60, true},
		{600000, 0, 0, 0, false},
	}
	for _, tt := range tests {
		text, level := ContextAdvice(tt.tokens, tt.window, tt.warned)
		if level != tt.wantLevel || (text != "") != tt.wantText {
			t.Errorf("ContextAdvice(%d, %d, %d) = %q, %d", tt.tokens, tt.window, tt.warned, text, level)
		}
	}
	text, _ := ContextAdvice(126000, 200000, 0)
	if want := "Context is 63% full (126000 of 200000 tokens, past the 60% mark). Flush your working state now with `st context write` (current task, decisions, next steps), before compaction."; text != want {
		t.Errorf("text = %q", text)
	}
}

func tool(event, name, path, cmd string) events.Event {
	return events.Event{TS: events.Stamp(t0), Event: event, Tool: name, Path: path, Command: cmd}
}

func TestRealWork(t *testing.T) {
	five := []events.Event{}
	for range 5 {
		five = append(five, tool("PostToolUse", "Read", "/a", ""))
	}
	tests := []struct {
		name string
		evs  []events.Event
		want bool
	}{
		{"nothing", nil, false},
		{"one edit", []events.Event{tool("PostToolUse", "Edit", "/a", "")}, true},
		{"a write", []events.Event{tool("PostToolUse", "Write", "/a", "")}, true},
		{"four reads", five[:4], false},
		{"five calls", five, true},
		{"pre-tool-use only", []events.Event{tool("PreToolUse", "Edit", "/a", "")}, false},
	}
	for _, tt := range tests {
		if got := RealWork(tt.evs); got != tt.want {
			t.Errorf("%s: RealWork = %v", tt.name, got)
		}
	}
}

func TestFlushReminder(t *testing.T) {
	now := t0
	after := 30 * time.Minute
	tests := []struct {
		name     string
		nowMod   time.Time
		lastMS   int64
		work     bool
		wantText string
	}{
		{"no work, no reminder", time.Time{}, 0, false, ""},
		{"missing now.md", time.Time{}, 0, true, "now.md has not been written"},
		{"fresh now.md", now.Add(-10 * time.Minute), 0, true, ""},
		{"stale now.md", now.Add(-47 * time.Minute), 0, true, "last written 47 minutes ago"},
		{"reminded 10 minutes ago", now.Add(-47 * time.Minute), now.Add(-10 * time.Minute).UnixMilli(), true, ""},
		{"reminded 31 minutes ago", now.Add(-47 * time.Minute), now.Add(-31 * time.Minute).UnixMilli(), true, "47 minutes"},
	}
	for _, tt := range tests {
		got := FlushReminder(now, tt.nowMod, after, tt.lastMS, tt.work)
		if (tt.wantText == "") != (got == "") || !strings.Contains(got, tt.wantText) {
			t.Errorf("%s: FlushReminder = %q, want %q", tt.name, got, tt.wantText)
		}
	}
}

func TestUpdateState(t *testing.T) {
	tr, dir := openTree(t)
	ctx := context.Background()
	err := UpdateState(ctx, tr, "alice", "s1", func(s *State) bool { s.ContextWarned = 60; return true })
	if err != nil {
		t.Fatal(err)
	}
	var got State
	UpdateState(ctx, tr, "alice", "s1", func(s *State) bool { got = *s; return false })
	if got.ContextWarned != 60 {
		t.Errorf("state = %+v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "alice/events/.s1.state.json")); err != nil {
		t.Error(err)
	}
	UpdateState(ctx, tr, "alice", "s2", func(s *State) bool { got = *s; return false })
	if !reflect.DeepEqual(got, State{}) {
		t.Errorf("fresh session state = %+v", got)
	}
}

func TestSubagentContract(t *testing.T) {
	if got := SubagentContract(DefaultConfig()); got != DefaultSubagentContract {
		t.Errorf("default = %q", got)
	}
	for _, word := range []string{"line numbers", "command you ran", "verified", "could not", "read the code or ran it"} {
		if !strings.Contains(DefaultSubagentContract, word) {
			t.Errorf("default contract lacks %q", word)
		}
	}
	if got := SubagentContract(Config{SubagentContract: "  Be brief.\n"}); got != "Be brief." {
		t.Errorf("configured = %q", got)
	}
}

func TestLargeRead(t *testing.T) {
	tests := []struct {
		name, tool, input string
		size              int64
		want              string
	}{
		{"large whole read", "Read", `{"file_path":"/w/big.go"}`, 48213, "/w/big.go is 48213 bytes (about 12054 tokens)"},
		{"small file", "Read", `{"file_path":"/w/a.go"}`, 16384, ""},
		{"with offset", "Read", `{"file_path":"/w/big.go","offset":100}`, 48213, ""},
		{"with limit", "Read", `{"file_path":"/w/big.go","limit":50}`, 48213, ""},
		{"offset zero still a range", "Read", `{"file_path":"/w/big.go","offset":0}`, 48213, ""},
		{"missing file", "Read", `{"file_path":"/w/none"}`, -1, ""},
		{"not a Read", "Edit", `{"file_path":"/w/big.go"}`, 48213, ""},
	}
	for _, tt := range tests {
		p := payload(t, `{"tool_name":"`+tt.tool+`","tool_input":`+tt.input+`}`)
		got := LargeRead(p.ToolName, p.Input(), tt.size, DefaultLargeRead)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: LargeRead = %q, want %q", tt.name, got, tt.want)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), make([]byte, 100), 0o666)
	if FileSize(filepath.Join(dir, "f")) != 100 || FileSize(dir) != -1 || FileSize(filepath.Join(dir, "x")) != -1 {
		t.Error("FileSize wrong")
	}
}

func TestDenyRules(t *testing.T) {
	d := CompileDeny([]DenyRule{
		{Tool: "Bash", Pattern: `rm\s+-rf\s+/`, Reason: "No recursive deletes from the root."},
		{Tool: "Edit|Write", Pattern: `\.env$`},
		{Tool: "", Pattern: `secrets/`, Reason: "secrets are off limits"},
		{Tool: "Bash", Pattern: `(unclosed`, Reason: "bad"},
		{Tool: "Bash", Pattern: ``, Reason: "empty"},
	})
	if len(d.Bad) != 2 {
		t.Errorf("Bad = %v", d.Bad)
	}
	tests := []struct {
		name, tool, input, reason string
		denied                    bool
	}{
		{"bash match", "Bash", `{"command":"sudo rm -rf / --no-preserve-root"}`, "No recursive deletes from the root.", true},
		{"bash no match", "Bash", `{"command":"rm -rf ./build"}`, "", false},
		{"tool list, default reason", "Write", `{"file_path":"/w/.env"}`, `Denied by an st deny rule (tool: Edit|Write; pattern: \.env$).`, true},
		{"other tool not in list", "Read", `{"file_path":"/w/.env"}`, "", false},
		{"any tool", "Read", `{"file_path":"/w/secrets/key"}`, "secrets are off limits", true},
		{"any tool on a command", "Bash", `{"command":"cat secrets/key"}`, "secrets are off limits", true},
		{"no target", "Bash", `{}`, "", false},
	}
	for _, tt := range tests {
		p := payload(t, `{"tool_name":"`+tt.tool+`","tool_input":`+tt.input+`}`)
		reason, denied := d.Match(p.ToolName, p.Input())
		if reason != tt.reason || denied != tt.denied {
			t.Errorf("%s: Match = %q, %v; want %q, %v", tt.name, reason, denied, tt.reason, tt.denied)
		}
	}
}

func fail(tool, input string) events.Event {
	return events.Event{TS: events.Stamp(t0), Event: "PostToolUseFailure", Tool: tool, Input: input}
}

func TestFailStreak(t *testing.T) {
	ok := events.Event{TS: events.Stamp(t0), Event: "PostToolUse", Tool: "Bash", Input: "h1"}
	pre := events.Event{TS: events.Stamp(t0), Event: "PreToolUse", Tool: "Bash", Input: "h1"}
	intr := fail("Bash", "h1")
	intr.Interrupt = true
	tests := []struct {
		name string
		evs  []events.Event
		want int
	}{
		{"none", nil, 0},
		{"one", []events.Event{fail("Bash", "h1")}, 1},
		{"three in a row", []events.Event{fail("Bash", "h1"), pre, fail("Bash", "h1"), pre, fail("Bash", "h1")}, 3},
		{"success breaks", []events.Event{fail("Bash", "h1"), ok, fail("Bash", "h1"), fail("Bash", "h1")}, 2},
		{"different input breaks", []events.Event{fail("Bash", "h1"), fail("Bash", "h2"), fail("Bash", "h1"), fail("Bash", "h1")}, 2},
		{"different tool breaks", []events.Event{fail("Bash", "h1"), fail("Read", "h1"), fail("Bash", "h1")}, 1},
		{"interrupt breaks", []events.Event{fail("Bash", "h1"), intr, fail("Bash", "h1")}, 1},
		{"four", []events.Event{fail("Bash", "h1"), fail("Bash", "h1"), fail("Bash", "h1"), fail("Bash", "h1")}, 4},
	}
	for _, tt := range tests {
		if got := FailStreak(tt.evs); got != tt.want {
			t.Errorf("%s: FailStreak = %d, want %d", tt.name, got, tt.want)
		}
	}
	for n, want := range map[int]bool{1: false, 2: false, 3: true, 4: false, 5: false, 6: true, 9: true} {
		if got := ThrashAdvice("Bash", n) != ""; got != want {
			t.Errorf("ThrashAdvice(%d) said %v", n, got)
		}
	}
}

func TestOperatorNotes(t *testing.T) {
	c := DefaultConfig()
	if !NotifiesOperator(c, "permission_prompt") || NotifiesOperator(c, "idle_prompt") || NotifiesOperator(c, "") {
		t.Error("default notify_operator_on wrong")
	}
	p := payload(t, `{"session_id":"s1","cwd":"/w","notification_type":"permission_prompt","title":"Permission needed","message":"Claude needs your permission to use Bash"}`)
	subject, body := OperatorNote("alice", &p)
	if subject != "agent alice waits: Permission needed" {
		t.Errorf("subject = %q", subject)
	}
	want := "Agent alice is waiting on a human (permission_prompt).\n\nTitle: Permission needed\nQuestion: Claude needs your permission to use Bash\n\nSession: s1\nDirectory: /w\n"
	if body != want {
		t.Errorf("body =\n%q\nwant\n%q", body, want)
	}
	p2 := payload(t, `{"notification_type":"idle_prompt"}`)
	if s, _ := OperatorNote("bob", &p2); s != "agent bob waits: idle_prompt" {
		t.Errorf("subject without title = %q", s)
	}
}

func TestBackoff(t *testing.T) {
	base, max := 15*time.Second, 600*time.Second
	tests := []struct {
		n    int
		j    float64
		want time.Duration
	}{
		{1, 0.5, 15 * time.Second},
		{2, 0.5, 30 * time.Second},
		{3, 0.5, 60 * time.Second},
		{6, 0.5, 480 * time.Second},
		{7, 0.5, 600 * time.Second},
		{10, 0.5, 600 * time.Second},
		{1, 0, 12 * time.Second},
		{1, 0.999999, 17999999 * time.Microsecond},
		{7, 0.999, 600 * time.Second},
		{7, 0, 480 * time.Second},
		{0, 0.5, 15 * time.Second},
		{1000, 0.5, 600 * time.Second},
	}
	for _, tt := range tests {
		got := Backoff(tt.n, base, max, tt.j)
		if d := got - tt.want; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("Backoff(%d, j=%v) = %v, want %v", tt.n, tt.j, got, tt.want)
		}
	}
	if got := Backoff(1, 250*time.Millisecond, max, 0.5); got != 250*time.Millisecond {
		t.Errorf("fractional base: %v", got)
	}
}

func TestPlanFor(t *testing.T) {
	want := map[int]Plan{1: PlanRetry, 4: PlanRetry, 5: PlanRetryAndAlert, 6: PlanRetry, 10: PlanRetry, 11: PlanGiveUp, 12: PlanNone, 50: PlanNone}
	for n, p := range want {
		if got := PlanFor(n); got != p {
			t.Errorf("PlanFor(%d) = %v, want %v", n, got, p)
		}
	}
	for typ, want := range map[string]bool{"overloaded": true, "server_error": true, "rate_limit": true,
		"billing_error": false, "authentication_failed": false, "account_on_hold": false, "invalid_request": false, "unknown": false, "": false} {
		if Transient(typ) != want {
			t.Errorf("Transient(%q) != %v", typ, want)
		}
	}
}

func TestRetryStreak(t *testing.T) {
	tr, _ := openTree(t)
	ctx := context.Background()
	s1, err := BeginRetry(ctx, tr, "alice", "s1", "overloaded", t0)
	if err != nil || s1.Attempt != 1 {
		t.Fatalf("BeginRetry = %+v, %v", s1, err)
	}
	if Superseded(tr, "alice", "s1", s1.Token) {
		t.Error("fresh retry superseded")
	}
	s2, _ := BeginRetry(ctx, tr, "alice", "s1", "overloaded", t0)
	if s2.Attempt != 2 || s2.Token == s1.Token {
		t.Errorf("second = %+v", s2)
	}
	if !Superseded(tr, "alice", "s1", s1.Token) || Superseded(tr, "alice", "s1", s2.Token) {
		t.Error("a newer failure must supersede only the older retry")
	}
	if other, _ := BeginRetry(ctx, tr, "alice", "s2", "rate_limit", t0); other.Attempt != 1 {
		t.Errorf("other session attempt = %d", other.Attempt)
	}
	if err := ClearRetry(ctx, tr, "alice", "s1"); err != nil {
		t.Fatal(err)
	}
	if !Superseded(tr, "alice", "s1", s2.Token) {
		t.Error("a prompt or stop must supersede the retry")
	}
	if err := ClearRetry(ctx, tr, "alice", "s1"); err != nil {
		t.Errorf("ClearRetry with no streak: %v", err)
	}
	if s3, _ := BeginRetry(ctx, tr, "alice", "s1", "overloaded", t0); s3.Attempt != 1 {
		t.Errorf("after clear attempt = %d", s3.Attempt)
	}
}

func TestWait(t *testing.T) {
	calls := 0
	if Wait(context.Background(), 30*time.Millisecond, 5*time.Millisecond, func() bool { calls++; return false }) {
		t.Error("Wait superseded without cause")
	}
	if calls < 2 {
		t.Errorf("checked %d times", calls)
	}
	start := time.Now()
	if !Wait(context.Background(), time.Hour, 5*time.Millisecond, func() bool { return time.Since(start) > 20*time.Millisecond }) {
		t.Error("Wait missed the supersession")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if !Wait(ctx, time.Hour, time.Hour, func() bool { return false }) {
		t.Error("Wait ignored a cancelled context")
	}
}

func TestRetryTexts(t *testing.T) {
	if got, want := RetryLine("overloaded", 2), "The previous turn ended on a transient API error (overloaded). Retry the failed turn now (automatic retry 2 of 10).\n"; got != want {
		t.Errorf("RetryLine = %q", got)
	}
	if s, _ := AlertNote("alice", "overloaded", 5); s != "agent alice: overloaded, retry 5 of 10" {
		t.Errorf("AlertNote subject = %q", s)
	}
	if s, _ := GiveUpNote("alice", "rate_limit"); s != "agent alice: gave up retrying rate_limit" {
		t.Errorf("GiveUpNote subject = %q", s)
	}
}

func TestDigest(t *testing.T) {
	at := func(sec int, e events.Event) events.Event {
		e.TS = events.Stamp(t0.Add(time.Duration(sec) * time.Second))
		return e
	}
	f := fail("Bash", "h")
	f.Command, f.Error = "go vet ./...", "Exit code 1"
	intr := f
	intr.Interrupt = true
	evs := []events.Event{
		at(0, tool("PostToolUse", "Edit", "/w/before.go", "")),
		at(10, tool("PostToolUse", "Edit", "/w/a.go", "")),
		at(11, tool("PostToolUse", "Bash", "", "go build ./...")),
		at(12, f),
		at(13, tool("PostToolUse", "Write", "/w/b.go", "")),
		at(14, tool("PostToolUse", "Edit", "/w/a.go", "")),
		at(15, tool("PostToolUse", "Read", "/w/c.go", "")),
		at(16, tool("PostToolUse", "Bash", "", "go test ./...\n  -run X")),
		at(17, intr),
	}
	want := "## Activity since now.md was last written (from st events)\n" +
		"\nFiles edited or written (newest first):\n- /w/a.go\n- /w/b.go\n" +
		"\nLast commands (newest first):\n- `go test ./... -run X`\n- `go build ./...`\n" +
		"\nFailures (newest first):\n- Bash go vet ./...: Exit code 1\n"
	if got := Digest(evs, t0.Add(5*time.Second)); got != want {
		t.Errorf("Digest =\n%s\nwant\n%s", got, want)
	}
	if got := Digest(evs, t0.Add(time.Hour)); got != "" {
		t.Errorf("Digest(nothing since) = %q", got)
	}
	var many []events.Event
	for i := range 30 {
		many = append(many, at(i, tool("PostToolUse", "Write", fmt.Sprintf("/w/f%02d", i), "")))
	}
	got := Digest(many, time.Time{})
	if strings.Count(got, "\n- ") != DigestFiles || !strings.Contains(got, "- /w/f29\n") || strings.Contains(got, "/w/f09") {
		t.Errorf("Digest of 30 files =\n%s", got)
	}
}

func TestSpool(t *testing.T) {
	tr, dir := openTree(t)
	name, err := Spool(tr, "alice", json.RawMessage(`{"prompt":"hello","session_id":"s1"}`), SpoolEnv{Host: "h", TmuxPane: "%1", Entrypoint: "cli"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(name, "1784628000000-") || !strings.HasSuffix(name, ".json") || len(name) != 25 {
		t.Errorf("name = %q", name)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "alice/spool", name))
	want := `{"payload":{"prompt":"hello","session_id":"s1"},"host":"h","tmux_pane":"%1","entrypoint":"cli","captured_at":1784628000000}` + "\n"
	if string(data) != want {
		t.Errorf("spool = %s", data)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "alice/spool"))
	if len(entries) != 1 {
		t.Errorf("spool holds %d entries (temp left?)", len(entries))
	}
}

// validateOutput checks a hook's stdout against the shapes Claude Code
// accepts (claude-code-hooks.md §1.1, §1.4): one JSON object; only
// known top-level keys; hookSpecificOutput.hookEventName equal to the
// event; only that event's fields; permissionDecision from the allowed
// set, with a reason when denying; strings under 10,000 characters.
func validateOutput(t *testing.T, event string, out []byte) {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(out, &top); err != nil || out[0] != '{' || out[len(out)-1] != '\n' {
		t.Fatalf("output %q is not one JSON object line", out)
	}
	allowedTop := map[string]bool{"continue": true, "stopReason": true, "suppressOutput": true, "systemMessage": true,
		"terminalSequence": true, "decision": true, "reason": true, "hookSpecificOutput": true}
	for k := range top {
		if !allowedTop[k] {
			t.Errorf("unknown top-level key %q", k)
		}
	}
	perEvent := map[string]map[string]bool{
		"PreToolUse":         {"permissionDecision": true, "permissionDecisionReason": true, "updatedInput": true, "additionalContext": true},
		"PostToolUse":        {"additionalContext": true, "updatedToolOutput": true, "updatedMCPToolOutput": true},
		"PostToolUseFailure": {"additionalContext": true},
		"UserPromptSubmit":   {"additionalContext": true, "sessionTitle": true, "suppressOriginalPrompt": true},
		"SubagentStart":      {"additionalContext": true},
		"Stop":               {"additionalContext": true}, // accepted by 2.1.328 (e2e/claudecode TestStopAnnouncesMidTurnArrival)
		"SessionStart":       {"additionalContext": true, "initialUserMessage": true, "sessionTitle": true, "watchPaths": true, "reloadSkills": true},
	}
	if raw, ok := top["hookSpecificOutput"]; ok {
		var hso map[string]any
		if err := json.Unmarshal(raw, &hso); err != nil {
			t.Fatalf("hookSpecificOutput is not an object: %s", raw)
		}
		if hso["hookEventName"] != event {
			t.Errorf("hookEventName = %v, want %s", hso["hookEventName"], event)
		}
		fields, ok := perEvent[event]
		if !ok {
			t.Errorf("event %s takes no hookSpecificOutput", event)
		}
		for k, v := range hso {
			if k == "hookEventName" {
				continue
			}
			if !fields[k] {
				t.Errorf("%s hookSpecificOutput has unknown field %q", event, k)
			}
			if s, ok := v.(string); ok && len([]rune(s)) > 10000 {
				t.Errorf("%s is %d characters", k, len([]rune(s)))
			}
		}
		if d, ok := hso["permissionDecision"]; ok {
			if d != "allow" && d != "deny" && d != "ask" && d != "defer" {
				t.Errorf("permissionDecision = %v", d)
			}
			if d == "deny" && hso["permissionDecisionReason"] == "" {
				t.Error("deny without a reason")
			}
		}
	}
}

func TestOutputShapes(t *testing.T) {
	long := strings.Repeat("é", 20000)
	tests := []struct {
		event string
		out   []byte
		want  string
	}{
		{"UserPromptSubmit", AdditionalContext("UserPromptSubmit", "Context is 63% full."), `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Context is 63% full."}}`},
		{"SubagentStart", AdditionalContext("SubagentStart", DefaultSubagentContract), ""},
		{"PreToolUse", AdditionalContext("PreToolUse", "big <file> & more"), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"big <file> & more"}}`},
		{"PreToolUse", Deny("No recursive deletes."), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"No recursive deletes."}}`},
		{"PostToolUseFailure", AdditionalContext("PostToolUseFailure", ThrashAdvice("Bash", 3)), ""},
		{"PostToolUseFailure", AdditionalContext("PostToolUseFailure", long), ""},
		{"Stop", SystemMessage("⏱ 10:00:00"), `{"systemMessage":"⏱ 10:00:00"}`},
	}
	for _, tt := range tests {
		validateOutput(t, tt.event, tt.out)
		if tt.want != "" && string(tt.out) != tt.want+"\n" {
			t.Errorf("output = %s, want %s", tt.out, tt.want)
		}
	}
}
