package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var fixed = time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)

func testOptions(t *testing.T) Options {
	t.Helper()
	dir := t.TempDir()
	return Options{
		Root:      filepath.Join(dir, "store"),
		Agent:     "alice",
		Now:       func() time.Time { return fixed },
		ConfigDir: filepath.Join(dir, "config"),
		StateDir:  filepath.Join(dir, "state"),
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
}

func TestFailureType(t *testing.T) {
	tests := []struct{ payload, want string }{
		{`{"error":"rate_limit"}`, "rate_limit"},
		{`{"error":"overloaded"}`, "overloaded"},
		{`{"error":"authentication_failed"}`, "authentication_failed"},
		{`{"error":"oauth_org_not_allowed"}`, "oauth_org_not_allowed"},
		{`{"error":"billing_error"}`, "billing_error"},
		{`{"error":"invalid_request"}`, "invalid_request"},
		{`{"error":"model_not_found"}`, "model_not_found"},
		{`{"error":"server_error"}`, "server_error"},
		{`{"error":"max_output_tokens"}`, "max_output_tokens"},
		{`{"error":"unknown"}`, "unknown"},
		{`{"error_type":"rate_limit"}`, "rate_limit"},
		{`{"error":"server_error","error_type":"rate_limit"}`, "server_error"},
		{`{"error":"","error_type":"billing_error"}`, "billing_error"},
		{`{"error":null,"error_type":"billing_error"}`, "billing_error"},
		{`{"error":false}`, "unknown"},
		{`{"error":true}`, "true"},
		{`{"error":429}`, "429"},
		{`{"error":{"a":1}}`, `{"a":1}`},
		{`{}`, "unknown"},
		{`[]`, "unknown"},
		{`"rate_limit"`, "unknown"},
		{`null`, "unknown"},
		{`not json`, "unknown"},
		{``, "unknown"},
	}
	for _, tt := range tests {
		if got := FailureType([]byte(tt.payload)); got != tt.want {
			t.Errorf("FailureType(%s) = %q, want %q", tt.payload, got, tt.want)
		}
	}
}

func FuzzFailureType(f *testing.F) {
	f.Add([]byte(`{"error":"rate_limit"}`))
	f.Add([]byte(`{"error_type":1e400}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if FailureType(data) == "" {
			t.Errorf("FailureType(%q) is empty", data)
		}
	})
}

func TestPolicyFor(t *testing.T) {
	none := Config{}
	tests := []struct {
		typ      string
		cfg      Config
		state    string
		notify   bool
		priority string
	}{
		{"rate_limit", none, "away", false, ""},
		{"overloaded", none, "away", false, ""},
		{"server_error", none, "away", true, ""},
		{"authentication_failed", none, "offline", true, "high"},
		{"oauth_org_not_allowed", none, "offline", true, "high"},
		{"billing_error", none, "offline", true, "high"},
		{"account_on_hold", none, "offline", true, "high"},
		{"verification_required", none, "offline", true, "high"},
		{"cloud_credential_error", none, "offline", true, "high"},
		{"max_output_tokens", none, "", false, ""},
		{"invalid_request", none, "", false, ""},
		{"model_not_found", none, "", false, ""},
		{"unknown", none, "away", true, ""},
		{"brand_new", none, "away", true, ""},
		{"rate_limit", ParseConfig([]byte("stop-failure:\n  rate_limit: {status: busy, notify: true, priority: low}\n")), "busy", true, "low"},
		{"server_error", ParseConfig([]byte("stop-failure:\n  server_error: {status: none}\n")), "", true, ""},
		{"brand_new", ParseConfig([]byte("stop-failure:\n  '*': {notify: false}\n")), "away", false, ""},
		{"unknown", ParseConfig([]byte("stop-failure:\n  unknown: {status: bogus, priority: urgent}\n")), "away", true, ""},
	}
	for _, tt := range tests {
		p := PolicyFor(tt.typ, tt.cfg)
		if p.State != tt.state || p.Notify != tt.notify || p.Priority != tt.priority {
			t.Errorf("PolicyFor(%q) = {%q %v %q}, want {%q %v %q}", tt.typ, p.State, p.Notify, p.Priority, tt.state, tt.notify, tt.priority)
		}
		if p.Notify && (p.subject == nil || p.body == nil) {
			t.Errorf("PolicyFor(%q) notifies without a subject or body", tt.typ)
		}
	}
}

func TestParseConfigOperator(t *testing.T) {
	tests := []struct{ yaml, operator string }{
		{"operator: ops\n", "ops"},
		{"# c\noperator: 'night-shift'\nother: 1\n", "night-shift"},
		{"operator: 42\n", "42"},
		{"operator: [a\n", ""},
		{"- a list\n", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ParseConfig([]byte(tt.yaml)).Operator; got != tt.operator {
			t.Errorf("ParseConfig(%q).Operator = %q, want %q", tt.yaml, got, tt.operator)
		}
	}
}

func TestSessionStartStaysUnderCap(t *testing.T) {
	opt := testOptions(t)
	opt.Inbox = true
	writeFile(t, filepath.Join(opt.Root, "alice/context/now.md"), "HEAD\n"+strings.Repeat("x", 50000)+"\nTAIL\n")
	for i := 0; i < 12; i++ {
		name := fmt.Sprintf("%013d-aaaaaa.md", 1784628000000+i)
		writeFile(t, filepath.Join(opt.Root, "alice/inbox", name), "---\nfrom: bob\nsubject: "+strings.Repeat("s", 5000)+"\n---\nx\n")
	}
	opt.Now = time.Now
	for _, asJSON := range []bool{false, true} {
		opt.JSON = asJSON
		r := Run(SessionStart, nil, opt)
		text := string(r.Stderr)
		if asJSON {
			var out struct {
				HookSpecificOutput struct{ AdditionalContext string }
			}
			if err := json.Unmarshal(r.Stdout, &out); err != nil {
				t.Fatal(err)
			}
			text = out.HookSpecificOutput.AdditionalContext
			if err := CheckOutput(SessionStart, r.Stdout); err != nil {
				t.Error(err)
			}
		}
		if len(text) >= 10000 {
			t.Errorf("json=%v: text is %d bytes, want < 10000", asJSON, len(text))
		}
		for _, want := range []string{"HEAD\n", "\nTAIL\n</context>", "## st inbox (12 unread)", "and 7 older", RitualLine} {
			if !strings.Contains(text, want) {
				t.Errorf("json=%v: text lacks %q", asJSON, want)
			}
		}
	}
}

func TestStub(t *testing.T) {
	s := Stub(fixed)
	if !strings.HasPrefix(s, "# now — pre-compact stub — 2026-07-21T10:00:00Z\n\n") || !strings.HasSuffix(s, "forward.\n\n") {
		t.Errorf("Stub() = %q", s)
	}
	if got, want := Marker(fixed), "> pre-compact 2026-07-21T10:00:00Z: compaction fired without a recent flush; the state below may be stale."; got != want {
		t.Errorf("Marker() = %q, want %q", got, want)
	}
}

func TestPreCompactRotatesLog(t *testing.T) {
	opt := testOptions(t)
	log := filepath.Join(opt.Root, "alice/context/.flush-errors.log")
	big := make([]byte, 200*1024)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	writeFile(t, log, string(big))
	writeFile(t, filepath.Join(opt.Root, "alice/context/now.md"), "fresh state\n")
	if r := Run(PreCompact, nil, opt); len(r.Stdout)+len(r.Stderr) != 0 || r.Code != 0 {
		t.Fatalf("Run(pre-compact) = %+v", r)
	}
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if want := big[len(big)-51200:]; !bytes.Equal(got, want) {
		t.Errorf("log is %d bytes, want the last 51200", len(got))
	}
	// A log at the limit is left alone.
	small := big[:102400]
	writeFile(t, log, string(small))
	Run(PreCompact, nil, opt)
	if got, _ := os.ReadFile(log); len(got) != 102400 {
		t.Errorf("log at the limit became %d bytes", len(got))
	}
}

func TestParseDurations(t *testing.T) {
	if got := Budget(""); got != DefaultBudget {
		t.Errorf("Budget(\"\") = %v", got)
	}
	if got := Budget(" 250 "); got != 250*time.Millisecond {
		t.Errorf("Budget(250) = %v", got)
	}
	for _, bad := range []string{"0", "-5", "abc", "NaN", "Inf", "1_000", "0x1p4", "1e3"} {
		if got := Budget(bad); got != DefaultBudget {
			t.Errorf("Budget(%q) = %v, want the default", bad, got)
		}
	}
	if got := precompactDeadline("0.5"); got != 500*time.Millisecond {
		t.Errorf("precompactDeadline(0.5) = %v", got)
	}
	if got := precompactDeadline("x"); got != 5*time.Second {
		t.Errorf("precompactDeadline(x) = %v", got)
	}
	if got := window(""); got != 600*time.Second {
		t.Errorf("window(\"\") = %v", got)
	}
	if got := window("0"); got != 0 {
		t.Errorf("window(0) = %v", got)
	}
}

func TestRunFailsOpen(t *testing.T) {
	for _, event := range append(Events, "no-such-event") {
		opt := testOptions(t)
		opt.TestPanic = true
		r := Run(event, []byte("{"), opt)
		want := 0
		if event == SessionStart {
			want = 2
		}
		if r.Code != want || len(r.Stdout) != 0 {
			t.Errorf("Run(%s) with a panic = %+v, want code %d and no stdout", event, r, want)
		}
		opt.TestPanic = false
		opt.TestDelay = time.Second
		opt.HookTimeoutMS = "20"
		start := time.Now()
		r = Run(event, nil, opt)
		if event != PreCompact && (r.Code != want || len(r.Stdout) != 0) {
			t.Errorf("Run(%s) past its budget = %+v", event, r)
		}
		if event != PreCompact && time.Since(start) >= time.Second {
			t.Errorf("Run(%s) waited for the slow hook", event)
		}
	}
}

// TestOutputsAreAccepted runs every hook on a populated store and checks
// that what it prints is what the harness accepts.
func TestOutputsAreAccepted(t *testing.T) {
	opt := testOptions(t)
	opt.Now = time.Now
	writeFile(t, filepath.Join(opt.Root, "alice/context/now.md"), "state with \"quotes\" and <tags>\n")
	writeFile(t, filepath.Join(opt.Root, "alice/inbox/9999999999999-aaaaaa.md"), "---\nfrom: bob\nsubject: hi\n---\nx\n")
	for _, event := range Events {
		for _, asJSON := range []bool{false, true} {
			o := opt
			o.JSON = asJSON
			o.StateDir = t.TempDir() // a cursor of its own: Stop reports the message
			r := Run(event, Sample(event), o)
			if err := CheckOutput(event, r.Stdout); err != nil {
				t.Errorf("%s json=%v: %v\n%s", event, asJSON, err, r.Stdout)
			}
			if IsCodex(event) && event != CodexPreToolUse && len(r.Stdout) == 0 { // pre-tool-use speaks only to refuse
				t.Errorf("%s printed nothing", event)
			}
		}
	}
	// The codex failure report is accepted too.
	for _, event := range []string{CodexSessionStart, CodexStop} {
		if err := CheckOutput(event, systemMessage("x").Stdout); err != nil {
			t.Errorf("systemMessage for %s: %v", event, err)
		}
	}
}

func TestCheckOutputRejects(t *testing.T) {
	tests := []struct{ event, out string }{
		{CodexSessionStart, `{"additionalContext":"x","continue":true}`},
		{CodexStop, `{"additionalContext":"x","continue":true}`},
		{CodexStop, `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}`},
		{CodexStop, `{"decision":"block"}`},
		{CodexStop, `{"decision":"approve","reason":"x"}`},
		{CodexSessionStart, `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}`},
		{CodexSessionStart, `{"hookSpecificOutput":{"hookEventName":"SessionStart","extra":1}}`},
		{CodexSessionStart, `plain text`},
		{CodexSessionStart, `{"continue":"yes"}`},
		{SessionStart, `{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"x"}}`},
		{SessionStart, `{"hookSpecificOutput":`},
		{CodexPreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{CodexPreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"x"}}`},
		{CodexPreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`},
		{CodexPreToolUse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x","extra":1}}`},
		{CodexPreToolUse, `{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny","permissionDecisionReason":"x"}}`},
		{CodexPreToolUse, `{"decision":"approve"}`},
	}
	for _, tt := range tests {
		if CheckOutput(tt.event, []byte(tt.out)) == nil {
			t.Errorf("CheckOutput(%s, %s) accepted it", tt.event, tt.out)
		}
	}
}

// TestSamplePayloads pins the payload fixtures to the field names the
// harnesses send (claude-code-hooks.md §1.2, §1.5, §2).
func TestSamplePayloads(t *testing.T) {
	common := []string{"session_id", "transcript_path", "cwd", "hook_event_name"}
	tests := []struct {
		event, harnessEvent string
		fields              []string
		closed              bool
	}{
		{SessionStart, "SessionStart", []string{"source", "model"}, false},
		{PreCompact, "PreCompact", []string{"trigger", "custom_instructions"}, false},
		{StopFailure, "StopFailure", []string{"error", "error_details", "last_assistant_message"}, false},
		{CodexSessionStart, "SessionStart", []string{"model", "permission_mode", "source"}, true},
		{CodexStop, "Stop", []string{"turn_id", "model", "permission_mode", "stop_hook_active", "last_assistant_message"}, true},
		{CodexPreToolUse, "PreToolUse", []string{"turn_id", "model", "permission_mode", "tool_name", "tool_input", "tool_use_id"}, true},
	}
	for _, tt := range tests {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(Sample(tt.event), &obj); err != nil {
			t.Fatalf("%s: %v", tt.event, err)
		}
		want := append(append([]string{}, common...), tt.fields...)
		for _, f := range want {
			if _, ok := obj[f]; !ok {
				t.Errorf("%s payload lacks %s", tt.event, f)
			}
		}
		if tt.closed && len(obj) != len(want) {
			t.Errorf("%s payload has %d fields, want exactly %v", tt.event, len(obj), want)
		}
		var name string
		json.Unmarshal(obj["hook_event_name"], &name)
		if name != tt.harnessEvent {
			t.Errorf("%s payload hook_event_name = %q, want %q", tt.event, name, tt.harnessEvent)
		}
	}
}

func TestStopFailureBurstUnderConcurrency(t *testing.T) {
	opt := testOptions(t)
	opt.Now = time.Now
	done := make(chan Result)
	for i := 0; i < 8; i++ {
		go func() { done <- Run(StopFailure, []byte(`{"error":"server_error"}`), opt) }()
	}
	for i := 0; i < 8; i++ {
		if r := <-done; r.Code != 0 || len(r.Stderr) != 0 {
			t.Errorf("Run = %+v", r)
		}
	}
	names, err := os.ReadDir(filepath.Join(opt.Root, "operator", "inbox"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 {
		t.Errorf("operator got %d messages, want 1", len(names))
	}
}
