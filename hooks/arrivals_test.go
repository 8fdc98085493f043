package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// deliver puts a message from bob into alice's inbox, named for at.
func deliver(t *testing.T, root string, at time.Time, subject string) string {
	t.Helper()
	name := fmt.Sprintf("%d-abcdef.md", at.UnixMilli())
	dir := filepath.Join(root, "alice", "inbox")
	os.MkdirAll(dir, 0o777)
	body := "---\nfrom: bob\nsubject: " + subject + "\n---\nhi\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o666); err != nil {
		t.Fatal(err)
	}
	return name
}

// stopAt runs the Stop hook of session s1 at time at and returns the
// text it handed the model ("" when it let the turn end).
func stopAt(t *testing.T, env Options, at time.Time) string {
	t.Helper()
	env.Now = func() time.Time { return at }
	res := Run(Stop, []byte(`{"session_id":"s1","hook_event_name":"Stop"}`), env)
	if res.Code != 0 || len(res.Stderr) != 0 {
		t.Fatalf("stop = %+v", res)
	}
	if len(res.Stdout) == 0 {
		return ""
	}
	validateOutput(t, "Stop", res.Stdout)
	var o map[string]json.RawMessage
	json.Unmarshal(res.Stdout, &o)
	var hso struct{ HookEventName, AdditionalContext string }
	json.Unmarshal(o["hookSpecificOutput"], &hso)
	if len(o) != 1 || hso.HookEventName != "Stop" || hso.AdditionalContext == "" {
		// decision:block would reach the model twice, labelled an error.
		t.Fatalf("stop printed %s, want only hookSpecificOutput with Stop's additionalContext", res.Stdout)
	}
	return hso.AdditionalContext
}

// Stop announces what reached the inbox since SessionStart listed it,
// once: the next Stop is silent, and what SessionStart already listed is
// never news (e2e/claudecode TestStopAnnouncesMidTurnArrival with the
// real client).
func TestStopAnnouncesArrivalsOnce(t *testing.T) {
	env, root := testEnv(t)
	deliver(t, root, t0.Add(-time.Hour), "listed at start")
	env.Start = t0
	Record("session-start", nil, "s1", env)

	if got := stopAt(t, env, t0.Add(time.Second)); got != "" {
		t.Errorf("stop with nothing new announced %q", got)
	}
	first := deliver(t, root, t0.Add(2*time.Second), "mid-turn")
	late := deliver(t, root, t0.Add(3*time.Second), "after the stop began")
	got := stopAt(t, env, t0.Add(3*time.Second))
	if !strings.HasPrefix(got, "## st inbox (1 new since last check)\n- "+first+"  bob  Subject: mid-turn\n") {
		t.Errorf("announcement = %q", got)
	}
	if strings.Contains(got, "listed at start") || strings.Contains(got, late) {
		t.Errorf("announcement %q holds a message it should not", got)
	}
	if got := stopAt(t, env, t0.Add(4*time.Second)); !strings.Contains(got, late) || strings.Contains(got, first) {
		t.Errorf("next stop = %q, want only %s", got, late)
	}
	if got := stopAt(t, env, t0.Add(5*time.Second)); got != "" {
		t.Errorf("a stop with nothing new announced %q", got)
	}
	if evs := logLines(t, root, "s1"); len(evs) != 5 || evs[2].Advice != "inbox" || evs[4].Advice != "" {
		t.Errorf("log = %+v", evs)
	}
}

// A Stop with nothing new writes nothing, and so leaves the cursor: a
// message named before that Stop but delivered after it (its sender's
// clock behind) is the next Stop's news, not lost.
func TestStopWithNothingNewLeavesTheCursor(t *testing.T) {
	for _, moved := range []bool{false, true} {
		t.Run(fmt.Sprintf("cursor in the state: %v", moved), func(t *testing.T) {
			env, root := testEnv(t)
			Record("session-start", nil, "s1", env)
			if moved { // an earlier Stop announced something and wrote its cursor
				deliver(t, root, t0.Add(500*time.Millisecond), "earlier")
				if got := stopAt(t, env, t0.Add(time.Second)); got == "" {
					t.Fatal("the first stop announced nothing")
				}
			}
			state := filepath.Join(root, "alice", "events", ".s1.state.json")
			before, beforeErr := os.Stat(state)
			content, _ := os.ReadFile(state)

			if got := stopAt(t, env, t0.Add(2*time.Second)); got != "" {
				t.Fatalf("stop with nothing new announced %q", got)
			}
			after, afterErr := os.Stat(state)
			now, _ := os.ReadFile(state)
			if moved && (beforeErr != nil || afterErr != nil || !os.SameFile(before, after) || string(now) != string(content)) {
				t.Errorf("the state was rewritten: %q, then %q (%v, %v)", content, now, beforeErr, afterErr)
			}
			if !moved && !errors.Is(afterErr, fs.ErrNotExist) {
				t.Errorf("the stop wrote a state: %q (%v)", now, afterErr)
			}

			late := deliver(t, root, t0.Add(1500*time.Millisecond), "named before the stop")
			if got := stopAt(t, env, t0.Add(3*time.Second)); !strings.Contains(got, late) {
				t.Errorf("next stop = %q, want %s", got, late)
			}
			if got := stopAt(t, env, t0.Add(4*time.Second)); got != "" {
				t.Errorf("it was announced again: %q", got)
			}
		})
	}
}

// Starting a session writes no state: its cursor is its log's first
// line, the SessionStart the hook appends, which Stop reads while the
// state holds none. Run on Claude Code's recorded SessionStart payload.
func TestSessionStartWritesNoState(t *testing.T) {
	env, root := testEnv(t)
	env.Inbox = true
	transcript := filepath.Join(t.TempDir(), "transcript.jsonl")
	os.WriteFile(transcript, nil, 0o666)
	payload := recordedPayload(t, "SessionStart", transcript)
	deliver(t, root, t0.Add(-time.Minute), "listed at start")
	if res := Run(SessionStart, payload, env); !strings.Contains(string(res.Stderr), "listed at start") {
		t.Fatalf("session-start = %+v, want the inbox listed", res)
	}
	if names := stateNames(t, root); len(names) != 0 {
		t.Errorf("session-start wrote %v", names)
	}
	stop := recordedPayload(t, "Stop", transcript)
	at := func(d time.Duration) Options { e := env; e.Now = func() time.Time { return t0.Add(d) }; return e }
	if res := Run(Stop, stop, at(time.Second)); len(res.Stdout) != 0 {
		t.Errorf("a stop with nothing new printed %s", res.Stdout)
	}
	if names := stateNames(t, root); len(names) != 0 {
		t.Errorf("a stop with nothing new wrote %v", names)
	}
	name := deliver(t, root, t0.Add(time.Second), "mid-turn")
	res := Run(Stop, stop, at(2*time.Second))
	if !strings.Contains(string(res.Stdout), name) || strings.Contains(string(res.Stdout), "listed at start") {
		t.Errorf("stop = %s, want only %s", res.Stdout, name)
	}
	if names := stateNames(t, root); len(names) != 1 {
		t.Errorf("the announcing stop left %v, want its state", names)
	}
}

// A session that starts again (resume, compact) keeps its cursor when
// nothing reached the inbox since it, and moves it to the new start past
// what arrived in between, which the new start listed.
func TestSessionStartAgain(t *testing.T) {
	for _, arrived := range []bool{false, true} {
		t.Run(fmt.Sprintf("a message in between: %v", arrived), func(t *testing.T) {
			env, root := testEnv(t)
			Record("session-start", nil, "s1", env)
			deliver(t, root, t0.Add(time.Second), "first turn")
			if got := stopAt(t, env, t0.Add(2*time.Second)); got == "" {
				t.Fatal("the first stop announced nothing")
			}
			state := filepath.Join(root, "alice", "events", ".s1.state.json")
			before, _ := os.ReadFile(state)
			var between string
			if arrived {
				between = deliver(t, root, t0.Add(3*time.Second), "before the compaction")
			}
			again := env
			again.Now = func() time.Time { return t0.Add(4 * time.Second) }
			Record("session-start", nil, "s1", again)
			after, _ := os.ReadFile(state)
			if moved := string(after) != string(before); moved != arrived {
				t.Errorf("state %s, then %s: want it moved: %v", before, after, arrived)
			}
			late := deliver(t, root, t0.Add(3500*time.Millisecond), "named before the start, delivered after")
			got := stopAt(t, env, t0.Add(5*time.Second))
			if arrived && (strings.Contains(got, between) || strings.Contains(got, late)) {
				t.Errorf("stop = %q, want neither what the start listed nor what its cursor passed", got)
			}
			if !arrived && !strings.Contains(got, late) {
				t.Errorf("stop = %q, want %s", got, late)
			}
		})
	}
}

// sessionStartMS reads the session's start from its log's first line
// only when that line is the session's SessionStart.
func TestSessionStartMS(t *testing.T) {
	const start = `{"ts":"2026-07-21T10:00:00.500Z","event":"SessionStart","session":"s1","hook_us":1200}`
	at := t0.UnixMilli() + 500
	long := `{"ts":"2026-07-21T10:00:00.500Z","event":"SessionStart","session":"s1","cwd":"/` + strings.Repeat("d", firstLineMax) + `","hook_us":1}`
	tests := []struct {
		name, log string
		want      int64
	}{
		{"no log", "", 0},
		{"the start less the hook's time", start + "\n" + `{"ts":"2026-07-21T10:00:09.000Z","event":"Stop","session":"s1","hook_us":1}` + "\n", at - 2},
		{"no hook time", `{"ts":"2026-07-21T10:00:00.500Z","event":"SessionStart","session":"s1","hook_us":0}` + "\n", at},
		{"a stop first", `{"ts":"2026-07-21T10:00:00.500Z","event":"Stop","session":"s1","hook_us":0}` + "\n" + start + "\n", 0},
		{"another session's line", `{"ts":"2026-07-21T10:00:00.500Z","event":"SessionStart","session":"s2","hook_us":0}` + "\n", 0},
		{"a line being written", start, 0},
		{"a line too long to read", long + "\n", 0},
		{"a bad time", `{"ts":"yesterday","event":"SessionStart","session":"s1","hook_us":0}` + "\n", 0},
		{"a negative hook time", `{"ts":"2026-07-21T10:00:00.500Z","event":"SessionStart","session":"s1","hook_us":-5}` + "\n", 0},
		{"not JSON", "SessionStart s1\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, dir := openTree(t)
			if tt.log != "" {
				os.MkdirAll(filepath.Join(dir, "alice/events"), 0o777)
				os.WriteFile(filepath.Join(dir, "alice/events/s1.jsonl"), []byte(tt.log), 0o666)
			}
			if got := sessionStartMS(tr, "alice", "s1"); got != tt.want {
				t.Errorf("sessionStartMS = %d, want %d", got, tt.want)
			}
		})
	}
}

// The cursor is the state's when it has one, the log's start when the
// state has none (absent, or written for something else, such as a
// context warning) and none when neither tells.
func TestCursor(t *testing.T) {
	const log = `{"ts":"2026-07-21T10:00:00.500Z","event":"SessionStart","session":"s1","hook_us":0}` + "\n"
	start := t0.UnixMilli() + 500
	tests := []struct {
		name  string
		state State
		log   bool
		want  int64
	}{
		{"the state's", State{InboxCheckedMS: 42}, true, 42},
		{"the state's, no log", State{InboxCheckedMS: 42}, false, 42},
		{"no state: the log's start", State{}, true, start},
		{"a state for a warning: the log's start", State{ContextWarned: 60}, true, start},
		{"neither", State{ContextWarned: 60}, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, dir := openTree(t)
			if tt.log {
				os.MkdirAll(filepath.Join(dir, "alice/events"), 0o777)
				os.WriteFile(filepath.Join(dir, "alice/events/s1.jsonl"), []byte(log), 0o666)
			}
			if got := cursor(tr, "alice", "s1", &tt.state); got != tt.want {
				t.Errorf("cursor = %d, want %d", got, tt.want)
			}
		})
	}
}

// stateNames lists the session state files in alice's events folder.
func stateNames(t *testing.T, root string) []string {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Join(root, "alice", "events"))
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".state.json") {
			names = append(names, e.Name())
		}
	}
	return names
}

// Without a SessionStart cursor the first Stop only starts one.
func TestStopWithoutSessionStartAnnouncesNothingOld(t *testing.T) {
	env, root := testEnv(t)
	deliver(t, root, t0.Add(-time.Hour), "old")
	if got := stopAt(t, env, t0); got != "" {
		t.Errorf("first stop announced %q", got)
	}
	name := deliver(t, root, t0.Add(time.Second), "new")
	if got := stopAt(t, env, t0.Add(2*time.Second)); !strings.Contains(got, name) || strings.Contains(got, "old") {
		t.Errorf("second stop = %q", got)
	}
}

func TestArrivalsTextCapsTheList(t *testing.T) {
	env, root := testEnv(t)
	env.Start = t0
	Record("session-start", nil, "s1", env)
	for i := 1; i <= 12; i++ {
		deliver(t, root, t0.Add(time.Duration(i)*time.Millisecond), fmt.Sprint("m", i))
	}
	got := stopAt(t, env, t0.Add(time.Second))
	if !strings.HasPrefix(got, "## st inbox (12 new since last check)\n- … 2 older (`st message ls`)\n") ||
		strings.Contains(got, "Subject: m2\n") || !strings.Contains(got, "Subject: m12\n") {
		t.Errorf("announcement = %q", got)
	}
}

// A message that asks for an acknowledgement is announced with the
// reminder, once; an acknowledged or ordinary one without.
func TestStopRemindsOfAcknowledgementOnce(t *testing.T) {
	env, root := testEnv(t)
	env.Start = t0
	Record("session-start", nil, "s1", env)
	plain := deliver(t, root, t0.Add(time.Second), "plain")
	ask := fmt.Sprintf("%d-ackreq.md", t0.Add(2*time.Second).UnixMilli())
	if err := os.WriteFile(filepath.Join(root, "alice", "inbox", ask), []byte("---\nfrom: bob\nsubject: confirm\nack: required\n---\nok?\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	got := stopAt(t, env, t0.Add(3*time.Second))
	want := "- " + ask + "  bob  Subject: confirm  (asks for an acknowledgement: after reading it, `st message ack " + ask + "`)\n"
	if !strings.Contains(got, want) || strings.Contains(got, plain+"  bob  Subject: plain  (asks") {
		t.Errorf("announcement = %q, want the line %q", got, want)
	}
	if got := stopAt(t, env, t0.Add(4*time.Second)); got != "" {
		t.Errorf("the reminder came again: %q", got)
	}
}

// A prompt that warns of the context's fill writes the session's state
// before any Stop has moved the cursor: the first Stop still counts from
// the session's start, not from nothing.
func TestStopAfterAWarningAnnouncesFromTheStart(t *testing.T) {
	env, root := testEnv(t)
	Record("session-start", nil, "s1", env)
	deliver(t, root, t0.Add(-time.Minute), "listed at start")
	in := fmt.Sprintf(`{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"do it","transcript_path":%q}`, writeTranscript(t, t.TempDir(), 125000))
	if got := contextOf(t, "UserPromptSubmit", Run(UserPromptSubmit, []byte(in), env).Stdout); !strings.Contains(got, "Context is 62% full") {
		t.Fatalf("the prompt said %q, want the fill's warning", got)
	}
	if names := stateNames(t, root); len(names) != 1 {
		t.Fatalf("the warning left states %v, want one", names)
	}
	name := deliver(t, root, t0.Add(time.Second), "mid-turn")
	if got := stopAt(t, env, t0.Add(2*time.Second)); !strings.Contains(got, name) || strings.Contains(got, "listed at start") {
		t.Errorf("stop = %q, want only %s", got, name)
	}
}
