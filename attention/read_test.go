package attention

import (
	"math/rand/v2"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// Read decodes only the lines from the last turn boundary: for any log,
// the group-deciding fields must be what folding every line gives.
func TestReadFromBoundary(t *testing.T) {
	kinds := []events.Event{
		{Event: "PreToolUse", Tool: "Bash", Input: "a"},
		{Event: "PostToolUse", Tool: "Bash", Input: "a"},
		{Event: "PostToolUseFailure", Tool: "Bash", Input: "a"},
		{Event: "PostToolUseFailure", Tool: "Bash", Input: "b"},
		{Event: "PostToolUseFailure", Tool: "Read", Input: "a", Interrupt: true},
		{Event: "Notification", Type: "permission_prompt", Message: "may I?"},
		{Event: "Notification", Type: "auth_success"},
		{Event: "StopFailure", Error: "overloaded"},
		{Event: "Stop"}, {Event: "UserPromptSubmit"}, {Event: "SessionStart"}, {Event: "PreCompact"},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)
	for run := range 300 {
		root := t.TempDir()
		os.MkdirAll(root+"/alice/inbox", 0o755)
		tr, err := fsutil.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		var all Activity
		n := 1 + rng.IntN(30)
		for i := range n {
			e := kinds[rng.IntN(len(kinds))]
			e.TS, e.Session = events.Stamp(base.Add(time.Duration(i)*time.Second)), "s1"
			if err := events.Append(t.Context(), tr, "alice", &e); err != nil {
				t.Fatal(err)
			}
			all.Feed(&e)
		}
		got := Read(tr, "alice", TailBytes)
		tr.Close()
		if !reflect.DeepEqual(got.Waiting, all.Waiting) || !reflect.DeepEqual(got.APIError, all.APIError) ||
			!reflect.DeepEqual(got.Thrashing(), all.Thrashing()) || !got.LastEvent.Equal(all.LastEvent) {
			t.Fatalf("run %d: Read = %+v, the whole fold = %+v", run, got, all)
		}
	}
}
