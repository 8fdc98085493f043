package events

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A log replaced by a shorter one (a prune and a new session of the same
// name, a restore) is read again from its start; one replaced by a
// symlink or a FIFO is no log and is passed over.
func TestFollowerRereadsAShorterLog(t *testing.T) {
	tr, dir := openTree(t)
	ctx := context.Background()
	for i := range 3 {
		Append(ctx, tr, "alice", ev(i, "PreToolUse", "s1"))
	}
	Append(ctx, tr, "alice", ev(3, "Stop", "s2"))
	fl := NewFollower(tr, "alice", Filter{})
	if recs, _ := fl.Poll(); len(recs) != 4 {
		t.Fatalf("first Poll = %d records, want 4", len(recs))
	}
	s1 := filepath.Join(dir, "alice", "events", "s1.jsonl")
	line, _ := Marshal(ev(9, "SessionStart", "s1"))
	if err := os.WriteFile(s1, line, 0o644); err != nil {
		t.Fatal(err)
	}
	s2 := filepath.Join(dir, "alice", "events", "s2.jsonl")
	if err := os.Remove(s2); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s1, s2); err != nil {
		t.Fatal(err)
	}
	recs, _ := fl.Poll()
	if len(recs) != 1 || recs[0].Event.Event != "SessionStart" || recs[0].File != "s1.jsonl" {
		t.Fatalf("Poll after the replace = %+v, want s1's SessionStart alone", recs)
	}
	if recs, _ := fl.Poll(); len(recs) != 0 {
		t.Errorf("Poll again = %d records, want 0", len(recs))
	}
}

// BenchmarkFollowerPoll is one wake of `st events --follow` for an agent
// with 1,000 session logs, one of which gained a line.
func BenchmarkFollowerPoll(b *testing.B) {
	tr, _ := openTree(b)
	ctx := context.Background()
	for i := range 1000 {
		Append(ctx, tr, "alice", ev(i, "Stop", fmt.Sprintf("s%04d", i)))
	}
	fl := NewFollower(tr, "alice", Filter{})
	if recs, _ := fl.Poll(); len(recs) != 1000 {
		b.Fatalf("first Poll = %d records", len(recs))
	}
	i := 0
	for b.Loop() {
		Append(ctx, tr, "alice", ev(i, "PreToolUse", "s0500"))
		if recs, _ := fl.Poll(); len(recs) != 1 {
			b.Fatalf("Poll = %d records, want 1", len(recs))
		}
		i++
	}
}

// Read takes regular logs only: a FIFO named like a log would hang a
// reader, and a symlink could show another agent's or any file.
func TestReadPassesOverWhatIsNotALog(t *testing.T) {
	tr, dir := openTree(t)
	Append(context.Background(), tr, "alice", ev(1, "Stop", "s1"))
	events := filepath.Join(dir, "alice", "events")
	outside := filepath.Join(t.TempDir(), "other.jsonl")
	line, _ := Marshal(ev(2, "SessionStart", "other"))
	if err := os.WriteFile(outside, line, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(events, "s2.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(events, "s3.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{{}, {Since: t0}} {
		recs, err := Read(tr, "alice", f)
		if err != nil || len(recs) != 1 || recs[0].File != "s1.jsonl" {
			t.Errorf("Read(%+v) = %+v, %v; want s1's line alone", f, recs, err)
		}
	}
}

func TestLogs(t *testing.T) {
	tr, dir := openTree(t)
	events := filepath.Join(dir, "alice", "events")
	os.MkdirAll(filepath.Join(events, "folder.jsonl"), 0o777)
	base := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	for i, name := range []string{"s1.jsonl", "s0.jsonl", "notes.txt", ".s0.state.json", "s0 (conflict).jsonl"} {
		p := filepath.Join(events, name)
		os.WriteFile(p, []byte(strings.Repeat("{}\n", i+1)), 0o666)
		at := base.Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, at, at)
	}
	os.Symlink("s1.jsonl", filepath.Join(events, "link.jsonl"))
	got, err := Logs(tr, "alice")
	want := []LogInfo{{"s0.jsonl", 6, base.Add(time.Minute)}, {"s1.jsonl", 3, base}}
	if err != nil || len(got) != len(want) {
		t.Fatalf("Logs = %+v, %v; want %+v", got, err, want)
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Size != want[i].Size || !got[i].ModTime.Equal(want[i].ModTime) {
			t.Errorf("Logs[%d] = %+v; want %+v", i, got[i], want[i])
		}
	}
	if got, err := Logs(tr, "bob"); err != nil || got != nil {
		t.Errorf("Logs(bob) = %+v, %v", got, err)
	}
}
