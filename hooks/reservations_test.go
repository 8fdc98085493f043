package hooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/reserve"
)

// TestReservationRefusal: under another agent's reservation the edit is
// refused even when a huge file and a foreign one sit in the holder's
// folder; the event line names what was skipped, and the reason shown to
// the model has its control characters escaped.
func TestReservationRefusal(t *testing.T) {
	opt := testOptions(t)
	repo := bobHolds(t, opt, "src/**")
	dir := filepath.Join(opt.Root, "bob", reserve.Folder)
	writeFile(t, filepath.Join(opt.Root, "alice", "status"), "busy\n")
	// What a sync may bring: a reason with a newline and an escape
	// sequence, a 1 GiB file, a file that is not a reservation.
	hostile := map[string]any{"id": "x", "agent": "bob", "repo": repo, "pattern": "lib/**", "mode": "exclusive",
		"reason": "ok\nFORGED \x1b[31mred", "created": fixed.UTC().Format(time.RFC3339), "expires": fixed.Add(time.Hour).UTC().Format(time.RFC3339)}
	data, _ := json.Marshal(hostile)
	writeFile(t, filepath.Join(dir, "1700000000002-hostil.json"), string(data))
	big := filepath.Join(dir, "1700000000000-huge01.json")
	writeFile(t, big, "")
	if err := os.Truncate(big, 1<<30); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "1700000000001-junk01.json"), "not json")

	edit := func(path string) Result {
		p, _ := json.Marshal(map[string]any{"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": "/", "tool_name": "Edit",
			"tool_input": map[string]any{"file_path": filepath.Join(repo, path), "old_string": "a", "new_string": "b"}, "tool_use_id": "t1"})
		return Run(PreToolUse, p, opt)
	}
	r := edit("src/a.go")
	if !strings.Contains(string(r.Stdout), `"permissionDecision":"deny"`) || !strings.Contains(string(r.Stdout), "reserved exclusively by agent bob as src/**") {
		t.Fatalf("edit under bob's reservation: %+v", r)
	}
	log, err := os.ReadFile(filepath.Join(opt.Root, "alice", "events", "s1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `"error":"skipped bob/reservations/1700000000000-huge01.json: larger than 64 KiB, not a reservation (and 1 more)"`) {
		t.Errorf("event line does not name the skipped files:\n%s", log)
	}
	r = edit("lib/b.go")
	var out struct {
		HookSpecificOutput struct{ PermissionDecisionReason string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(r.Stdout, &out); err != nil {
		t.Fatalf("%v: %s", err, r.Stdout)
	}
	why := out.HookSpecificOutput.PermissionDecisionReason
	if !strings.Contains(why, `(reason: ok\nFORGED \x1b[31mred)`) || strings.ContainsAny(why, "\n\x1b") {
		t.Errorf("refusal = %q, want the reason's control characters escaped", why)
	}
}
