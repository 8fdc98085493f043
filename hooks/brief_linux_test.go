package hooks

import (
	"path/filepath"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// What the brief reads of the fleet, counted at the files: nothing of its
// own agent's status or sessions, the others' both.
func TestBriefOpensNothingOfItsOwnAgent(t *testing.T) {
	opt := testOptions(t)
	opt.Config = DefaultConfig()
	var watched []string
	for _, id := range []string{"alice", "bob"} {
		status := filepath.Join(opt.Root, id, "status")
		writeFile(t, status, "busy\n")
		writeFile(t, filepath.Join(opt.Root, id, "events", "s1.jsonl"), `{"ts":"2026-07-21T09:56:00.000Z","event":"SessionStart","session":"s1"}`+"\n")
		watched = append(watched, status, filepath.Join(opt.Root, id, "events"))
	}
	tr, err := fsutil.Open(opt.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	got := opens(t, watched, func() { readFleet(tr, opt, fixed) })
	for _, p := range watched {
		own := filepath.Base(filepath.Dir(p)) == "alice"
		if own && got[p] > 0 || !own && got[p] == 0 {
			t.Errorf("the brief of alice opened %s %d times", p, got[p])
		}
	}
}
