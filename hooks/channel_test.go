package hooks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// channelBlock is a push as Claude Code 2.1.328 hands it to the model
// and to UserPromptSubmit (e2e/claudecode TestChannelPushReachesModel).
func channelBlock(name, identity string) string {
	return `<channel source="st" from="bob" messageFilename="` + name + `" threadFilename="` + name +
		`" identity="` + identity + "\">\nSubject: hi\n\nbody\n\n</channel>"
}

func TestChannelDeliveries(t *testing.T) {
	const a, b = "1796161230173-sk2np6.md", "1796161230999-zzzzzz.md"
	tests := []struct {
		name, prompt string
		want         []string
	}{
		{"one push", channelBlock(a, "alice"), []string{a}},
		{"two pushes in one prompt", channelBlock(a, "alice") + "\n" + channelBlock(b, "alice"), []string{a, b}},
		{"the same push twice", channelBlock(a, "alice") + "\n" + channelBlock(a, "alice"), []string{a}},
		{"mid-turn, after other text", "A message arrived from st while you were working:\n" + channelBlock(a, "alice"), []string{a}},
		{"an outside file", channelBlock("notes.md", "alice"), []string{"notes.md"}},
		{"another agent's push", channelBlock(a, "carol"), nil},
		{"no identity", `<channel source="st" from="bob" messageFilename="` + a + "\">\nx\n</channel>", nil},
		{"a tidy check: no filename", `<channel source="st" from="st" kind="tidy" identity="alice">` + "\nx\n</channel>", nil},
		{"a name that is no inbox file", channelBlock("../status", "alice"), nil},
		{"a tag inside a line of text", "see " + channelBlock(a, "alice"), nil},
		{"a typed prompt", "fix the tests", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ChannelDeliveries(tt.prompt, "alice"); !slices.Equal(got, tt.want) {
				t.Errorf("ChannelDeliveries = %q, want %q", got, tt.want)
			}
		})
	}
}

func FuzzChannelDeliveries(f *testing.F) {
	f.Add(channelBlock("1796161230173-sk2np6.md", "alice"))
	f.Add("<channel source=\"\" identity=\"alice\" messageFilename=\"x.md\">")
	f.Fuzz(func(t *testing.T, prompt string) {
		for _, n := range ChannelDeliveries(prompt, "alice") {
			if !strings.Contains(prompt, `messageFilename="`+n+`"`) {
				t.Fatalf("%q is not in the prompt %q", n, prompt)
			}
		}
	})
}

// promptAt runs user-prompt-submit of session s1 on prompt at time at.
func promptAt(t *testing.T, env Options, at time.Time, prompt string) {
	t.Helper()
	env.Now = func() time.Time { return at }
	in, _ := json.Marshal(map[string]string{"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": prompt})
	if res := Run(UserPromptSubmit, in, env); res.Code != 0 || len(res.Stderr) != 0 {
		t.Fatalf("user-prompt-submit = %+v", res)
	}
}

// A message the model got as a channel block (its UserPromptSubmit
// carried it) is not announced again by the Stop that ends the turn;
// one that came by no channel still is.
func TestStopLeavesOutChannelDeliveries(t *testing.T) {
	env, root := testEnv(t)
	env.Start = t0
	Record("session-start", nil, "s1", env)
	pushed := deliver(t, root, t0.Add(time.Second), "pushed")
	other := deliver(t, root, t0.Add(2*time.Second), "not pushed")
	promptAt(t, env, t0.Add(3*time.Second), channelBlock(pushed, "alice"))
	got := stopAt(t, env, t0.Add(4*time.Second))
	if !strings.HasPrefix(got, "## st inbox (1 new since last check)\n- "+other+"  bob  Subject: not pushed\n") {
		t.Errorf("announcement = %q, want only %s", got, other)
	}
	if strings.Contains(got, pushed) {
		t.Errorf("the announcement repeats the channel push %s: %q", pushed, got)
	}

	// Every message of a turn came by channel: the Stop lets it end.
	late := deliver(t, root, t0.Add(5*time.Second), "late")
	promptAt(t, env, t0.Add(6*time.Second), channelBlock(late, "alice"))
	if got := stopAt(t, env, t0.Add(7*time.Second)); got != "" {
		t.Errorf("stop after a turn of channel pushes announced %q", got)
	}
}

// Stop keeps only the noted names a later Stop can still meet, and the
// note is bounded.
func TestChannelNotedIsPruned(t *testing.T) {
	env, root := testEnv(t)
	env.Start = t0
	Record("session-start", nil, "s1", env)
	past := deliver(t, root, t0.Add(time.Second), "past")
	future := fmt.Sprintf("%d-abcdef.md", t0.Add(time.Hour).UnixMilli())
	promptAt(t, env, t0.Add(2*time.Second), channelBlock(past, "alice")+"\n"+channelBlock(future, "alice"))
	if got := stopAt(t, env, t0.Add(3*time.Second)); got != "" {
		t.Errorf("stop announced %q", got)
	}
	if got := readState(t, root).ChannelNoted; !slices.Equal(got, []string{future}) {
		t.Errorf("noted after the stop = %q, want only %s", got, future)
	}

	var s State
	var names []string
	for i := range channelNotedMax + 5 {
		names = append(names, fmt.Sprintf("%d-abcdef.md", t0.UnixMilli()+int64(i)))
	}
	if !s.noteChannel(names) || len(s.ChannelNoted) != channelNotedMax || s.ChannelNoted[0] != names[5] {
		t.Errorf("noted %d names from %s, want the newest %d", len(s.ChannelNoted), s.ChannelNoted[0], channelNotedMax)
	}
	if s.noteChannel(names[len(names)-1:]) {
		t.Error("noting a known name reported a change")
	}
}

func readState(t *testing.T, root string) State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "alice/events/.s1.state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkChannelDeliveries: user-prompt-submit scans every prompt; a
// long typed one holds no tag.
func BenchmarkChannelDeliveries(b *testing.B) {
	prompt := strings.Repeat("a line of a long pasted prompt <b>with</b> tags\n", 1400) // ~64 KB
	b.SetBytes(int64(len(prompt)))
	for b.Loop() {
		ChannelDeliveries(prompt, "alice")
	}
}
