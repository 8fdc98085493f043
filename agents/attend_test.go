package agents

import (
	"path/filepath"
	"testing"
	"time"
)

// AttendFleet skips the inbox and archive scans, yet places every agent
// in the group Enrich's whole scan gives: a busy agent whose status file
// is old but whose archive changed a minute ago is not busy but silent.
func TestAttendFleetGroups(t *testing.T) {
	now := time.Now()
	tr, root := store(t, map[string]string{
		"archiver/status":                          "busy\n",
		"archiver/archive/1700000000002-cccccc.md": "x",
		"silent/status":                            "busy\n",
		"silent/inbox/1700000000001-bbbbbb.md":     "x",
		"lively/status":                            "busy\n",
		"idle/status":                              "available\n",
	})
	old := now.Add(-20 * time.Minute)
	for _, p := range []string{"archiver/status", "silent/status", "silent/inbox/1700000000001-bbbbbb.md"} {
		setMtime(t, filepath.Join(root, p), old)
	}
	setMtime(t, filepath.Join(root, "archiver/archive/1700000000002-cccccc.md"), now.Add(-time.Minute))
	list := []Agent{{Identity: "archiver", Status: "busy"}, {Identity: "idle", Status: "available"},
		{Identity: "lively", Status: "busy"}, {Identity: "silent", Status: "busy"}}
	whole := Enrich(tr, list, now)
	light := AttendFleet(tr, list, now)
	want := []string{"busy", "available", "busy", "stale"}
	for i := range list {
		if whole[i].Group() != want[i] || light[i].Group() != want[i] {
			t.Errorf("%s: Enrich %q, AttendFleet %q, want %q", list[i].Identity, whole[i].Group(), light[i].Group(), want[i])
		}
		if (whole[i].Attention == nil) != (light[i].Attention == nil) {
			t.Errorf("%s: attention %v vs %v", list[i].Identity, whole[i].Attention, light[i].Attention)
		}
	}
}
