package hooks

import (
	"encoding/json"
	"fmt"
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
	env, root := testEnv(t)
	env.Start = t0
	Record("session-start", nil, "s1", env)
	state := filepath.Join(root, "alice", "events", ".s1.state.json")
	before, err := os.Stat(state)
	if err != nil {
		t.Fatal(err)
	}
	content, _ := os.ReadFile(state)

	if got := stopAt(t, env, t0.Add(2*time.Second)); got != "" {
		t.Fatalf("stop with nothing new announced %q", got)
	}
	after, err := os.Stat(state)
	if err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(state); !os.SameFile(before, after) || string(now) != string(content) {
		t.Errorf("the state was rewritten: %q, then %q", content, now)
	}

	late := deliver(t, root, t0.Add(time.Second), "named before the stop")
	if got := stopAt(t, env, t0.Add(3*time.Second)); !strings.Contains(got, late) {
		t.Errorf("next stop = %q, want %s", got, late)
	}
	if got := stopAt(t, env, t0.Add(4*time.Second)); got != "" {
		t.Errorf("it was announced again: %q", got)
	}
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
