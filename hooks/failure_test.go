package hooks

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// What Claude Code 2.1.328 really sends (e2e/claudecode/testdata/payloads)
// reaches the policy rows for overloaded and invalid requests.
func TestFailureTypeOfRecordedPayloads(t *testing.T) {
	tests := []struct{ file, want string }{
		{"StopFailure-529.json", "overloaded"},
		{"StopFailure-400.json", "invalid_request"},
		{"StopFailure.json", "server_error"}, // a 500
	}
	for _, tt := range tests {
		data, err := os.ReadFile(filepath.Join("..", "e2e", "claudecode", "testdata", "payloads", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := FailureType(data); got != tt.want {
			t.Errorf("%s: FailureType = %q, want %q", tt.file, got, tt.want)
		}
		p, _ := ParsePayload(data)
		if got := p.FailureType(); got != tt.want {
			t.Errorf("%s: Payload.FailureType = %q, want %q", tt.file, got, tt.want)
		}
	}
}

func TestRefineFailure(t *testing.T) {
	tests := []struct{ typ, last, want string }{
		{"server_error", "API Error: 529 Overloaded", "overloaded"},
		{"server_error", "API Error: 529", "overloaded"},
		{"server_error", "API Error: 500 Internal", "server_error"},
		{"server_error", "API Error: 5290 odd", "server_error"},
		{"server_error", "", "server_error"},
		{"unknown", "API Error: 400 bad", "invalid_request"},
		{"unknown", "API Error: 401", "unknown"},
		{"rate_limit", "API Error: 529", "rate_limit"}, // only what the client mislabels
		{"server_error", "the model said API Error: 529", "server_error"},
	}
	for _, tt := range tests {
		if got := RefineFailure(tt.typ, tt.last); got != tt.want {
			t.Errorf("RefineFailure(%q, %q) = %q, want %q", tt.typ, tt.last, got, tt.want)
		}
	}
}

func readStatus(t *testing.T, root string) string {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(root, "alice", "status"))
	return strings.TrimSpace(string(data))
}

func setStatusFile(t *testing.T, root, state string) {
	t.Helper()
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	if err := os.WriteFile(filepath.Join(root, "alice", "status"), []byte(state+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
}

// After an API failure set the status, the session's next Stop (the
// retried turn ended well) puts back the status from before the first
// failure of the streak, unless someone changed it meanwhile.
func TestStopRestoresStatusAfterFailure(t *testing.T) {
	fail := []byte(`{"session_id":"s1","hook_event_name":"StopFailure","error":"server_error","last_assistant_message":"API Error: 529 Overloaded"}`)
	stop := []byte(`{"session_id":"s1","hook_event_name":"Stop"}`)
	tests := []struct {
		name     string
		before   string
		failures int
		meantime string // a status someone sets between the failure and the Stop
		want     string
	}{
		{"one failure", "busy", 1, "", "busy"},
		{"a streak keeps the first status", "dnd", 3, "", "dnd"},
		{"a status set meanwhile stays", "busy", 1, "available", "available"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, root := testEnv(t)
			setStatusFile(t, root, tt.before)
			for range tt.failures {
				Run(StopFailure, fail, env)
			}
			if got := readStatus(t, root); got != "away" {
				t.Fatalf("status after the failure = %q, want away (the overloaded row)", got)
			}
			if tt.meantime != "" {
				setStatusFile(t, root, tt.meantime)
			}
			Run(Stop, stop, env)
			if got := readStatus(t, root); got != tt.want {
				t.Errorf("status after the Stop = %q, want %q", got, tt.want)
			}
			// The failure is over: a later Stop changes nothing.
			setStatusFile(t, root, "away")
			Run(Stop, stop, env)
			if got := readStatus(t, root); got != "away" {
				t.Errorf("a second Stop changed the status to %q", got)
			}
		})
	}
}

// Another session's Stop does not end this session's failure.
func TestStopOfAnotherSessionKeepsFailureStatus(t *testing.T) {
	env, root := testEnv(t)
	setStatusFile(t, root, "busy")
	Run(StopFailure, []byte(`{"session_id":"s1","error":"rate_limit"}`), env)
	Run(Stop, []byte(`{"session_id":"s2","hook_event_name":"Stop"}`), env)
	if got := readStatus(t, root); got != "away" {
		t.Errorf("status = %q, want away", got)
	}
}

func TestCanRewake(t *testing.T) {
	tests := []struct {
		name       string
		unattended bool
		args       string
		want       bool
	}{
		{"interactive", false, "claude", true},
		{"one-shot -p", true, "/usr/bin/claude -p do the work --output-format stream-json", false},
		{"stream-json input", true, "claude -p --input-format stream-json --output-format stream-json", true},
		{"stream-json input, = form", true, "claude -p --input-format=stream-json", true},
		{"unknown command line", true, "", true},
	}
	for _, tt := range tests {
		if got := CanRewake(Knobs{Unattended: tt.unattended}, tt.args); got != tt.want {
			t.Errorf("%s: CanRewake = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// In a one-shot claude -p (unattended, no stream-json input: this test
// process stands in for it) a transient failure does not wait out the
// backoff and asks for no retry; the log says why.
func TestStopFailureRetryHeadless(t *testing.T) {
	env, root := retryEnv(t)
	env.Knobs.RetryBase, env.Knobs.RetryMax = time.Hour, time.Hour
	env.Knobs.Unattended, env.Knobs.ClientPID = true, strconv.Itoa(os.Getpid())
	done := make(chan Result, 1)
	go func() { done <- StopFailureRetry([]byte(`{"session_id":"s1","error":"rate_limit"}`), env) }()
	select {
	case res := <-done:
		if res.Code != 0 || len(res.Stderr) != 0 {
			t.Errorf("headless retry = %+v, want exit 0 and silence", res)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the headless retry waited for its backoff")
	}
	evs := logLines(t, root, "s1")
	if len(evs) != 1 || evs[0].Advice != "no-retry-headless" {
		t.Errorf("log = %+v, want one StopFailure line with advice no-retry-headless", evs)
	}
}

func TestClientCommandLine(t *testing.T) {
	if got := ClientCommandLine(strconv.Itoa(os.Getpid())); !strings.Contains(got, filepath.Base(os.Args[0])) {
		t.Errorf("ClientCommandLine(self) = %q, want it to name %s", got, os.Args[0])
	}
	for _, pid := range []string{"", "abc", "1/../2"} {
		if got := ClientCommandLine(pid); got != "" {
			t.Errorf("ClientCommandLine(%q) = %q, want \"\"", pid, got)
		}
	}
}
