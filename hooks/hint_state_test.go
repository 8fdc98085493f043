package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsynctest"
)

// The session's state is hints (state.go), so a session's start, a
// prompt that warns of the context's fill, a Stop that announces an
// arrival and the session's end (its offline status) ask the disk for no
// sync; a failure that sets the agent's
// status still syncs the status and the status to put back after it,
// and so does any write of the state while it holds that status.
func TestHintStateIsNotSynced(t *testing.T) {
	tests := []struct {
		scenario string
		durable  []string // files whose writes must be synced; none: no sync at all
	}{
		{"turn", nil},
		{"failure", []string{"/alice/.status", "state.json"}},
		{"prompt during a failure", []string{"state.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			root := t.TempDir()
			synced := fsynctest.Synced(t, fsynctest.Helper("TestHintStateHelper",
				"ST_HINT_HELPER_ROOT="+root, "ST_HINT_HELPER_SCENARIO="+tt.scenario))
			all := strings.Join(synced, "\n")
			if tt.durable == nil && len(synced) != 0 {
				t.Errorf("the hooks synced:\n%s", all)
			}
			for _, f := range tt.durable {
				if !strings.Contains(all, f) {
					t.Errorf("no sync of %s among:\n%s", f, all)
				}
			}
		})
	}
}

// TestHintStateHelper plays a scenario of TestHintStateIsNotSynced in a
// process of its own.
func TestHintStateHelper(t *testing.T) {
	root := os.Getenv("ST_HINT_HELPER_ROOT")
	if root == "" {
		t.Skip("run by TestHintStateIsNotSynced")
	}
	os.MkdirAll(filepath.Join(root, "alice"), 0o777)
	env := Options{Root: root, Agent: "alice", Now: func() time.Time { return t0 }, Config: DefaultConfig(),
		Knobs: KnobsFrom(func(string) string { return "" })}
	warn := func() {
		in := fmt.Sprintf(`{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"do it","transcript_path":%q}`, writeTranscript(t, t.TempDir(), 125000))
		if got := contextOf(t, "UserPromptSubmit", Run(UserPromptSubmit, []byte(in), env).Stdout); !strings.Contains(got, "Context is 62% full") {
			t.Fatalf("the prompt's context = %q, want the fill's warning", got)
		}
	}
	switch os.Getenv("ST_HINT_HELPER_SCENARIO") {
	case "turn":
		env.Start = t0
		Record("session-start", nil, "s1", env)
		warn()
		name := deliver(t, root, t0.Add(time.Second), "mid-turn")
		if got := stopAt(t, env, t0.Add(2*time.Second)); !strings.Contains(got, name) {
			t.Fatalf("stop announced %q, want %s", got, name)
		}
		Run(SessionEnd, []byte(`{"session_id":"s1","hook_event_name":"SessionEnd","reason":"prompt_input_exit"}`), env)
		if got := readStatus(t, root); got != "offline" {
			t.Fatalf("status after the session's end = %q, want offline", got)
		}
	case "failure":
		setStatusFile(t, root, "busy")
		Run(StopFailure, []byte(`{"session_id":"s1","error":"server_error"}`), env)
		if got := readStatus(t, root); got != "away" {
			t.Fatalf("status after the failure = %q, want away", got)
		}
	case "prompt during a failure": // the state holds the status to put back
		state := filepath.Join(root, filepath.FromSlash(events.StatePath("alice", "s1", "state")))
		os.MkdirAll(filepath.Dir(state), 0o777)
		os.WriteFile(state, []byte(`{"status_before":"busy","status_failed":"away"}`), 0o666)
		warn()
	}
}

// What a crash can do to the session's state, written without syncs:
// keep the bytes from before the last write, leave the file empty or
// gone, or leave a temp file beside it. None of it breaks Stop or loses
// a message: a lost write announces the message again, and so does a
// state gone or empty, the cursor falling back to the session's start
// in its log, with the message still in the inbox.
func TestStopAfterACrashLostTheCursor(t *testing.T) {
	tests := []struct {
		name  string
		crash func(statePath string, before []byte)
		again bool // the next Stop announces the second message again
	}{
		{"the last write lost", func(p string, before []byte) { os.WriteFile(p, before, 0o666) }, true},
		{"the state empty", func(p string, _ []byte) { os.WriteFile(p, nil, 0o666) }, true},
		{"the state gone", func(p string, _ []byte) { os.Remove(p) }, true},
		{"a temp file left", func(p string, _ []byte) {
			os.WriteFile(filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+"123"), []byte(`{"inbox_checked_ms":1}`), 0o666)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, root := testEnv(t)
			Record("session-start", nil, "s1", env)
			state := filepath.Join(root, filepath.FromSlash(events.StatePath("alice", "s1", "state")))
			first := deliver(t, root, t0.Add(time.Second), "first")
			if got := stopAt(t, env, t0.Add(2*time.Second)); !strings.Contains(got, first) {
				t.Fatalf("stop announced %q, want %s", got, first)
			}
			before, err := os.ReadFile(state)
			if err != nil {
				t.Fatal(err)
			}
			name := deliver(t, root, t0.Add(2*time.Second), "mid-turn")
			if got := stopAt(t, env, t0.Add(3*time.Second)); !strings.Contains(got, name) {
				t.Fatalf("stop announced %q, want %s", got, name)
			}
			tt.crash(state, before)
			got := stopAt(t, env, t0.Add(4*time.Second))
			if again := strings.Contains(got, name); again != tt.again {
				t.Errorf("the stop after the crash announced %q; want the message again: %v", got, tt.again)
			}
			if _, err := os.Stat(filepath.Join(root, "alice", "inbox", name)); err != nil {
				t.Errorf("the message left the inbox: %v", err)
			}
			next := deliver(t, root, t0.Add(4*time.Second), "after the crash")
			if got := stopAt(t, env, t0.Add(5*time.Second)); !strings.Contains(got, next) || strings.Contains(got, name) {
				t.Errorf("the next stop announced %q, want only %s", got, next)
			}
		})
	}
}

// A prompt with nothing to say reads the session's state without its
// lock (changeState): the state's lock file is never made. One that
// warns of the context's fill takes the lock and writes the state.
func TestPromptWithNothingToSayTakesNoLock(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the lock files go (fsutil.Lock)
	env, root := testEnv(t)
	locks := func() []string {
		found, _ := filepath.Glob(filepath.Join(tmp, "st-locks-*", "*", "hookstate-*"))
		return found
	}
	prompt := func(tokens int) string {
		in := fmt.Sprintf(`{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"do it","transcript_path":%q}`, writeTranscript(t, t.TempDir(), tokens))
		return contextOf(t, "UserPromptSubmit", Run(UserPromptSubmit, []byte(in), env).Stdout)
	}
	if got := prompt(50000); got != "" {
		t.Fatalf("a prompt at 25%% said %q", got)
	}
	if found := locks(); len(found) != 0 {
		t.Errorf("a prompt with nothing to say took the state's lock: %v", found)
	}
	if got := prompt(125000); !strings.Contains(got, "Context is 62% full") {
		t.Fatalf("a prompt at 62%% said %q", got)
	}
	if found := locks(); len(found) != 1 {
		t.Errorf("a prompt that warned left lock files %v, want one", found)
	}
	if names := stateNames(t, root); len(names) != 1 {
		t.Errorf("a prompt that warned left states %v, want one", names)
	}
}
