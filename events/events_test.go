package events

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

func openTree(t testing.TB) (*fsutil.Tree, string) {
	t.Helper()
	dir := t.TempDir()
	tr, err := fsutil.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, dir
}

var t0 = time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)

func ev(sec int, name, session string) *Event {
	return &Event{TS: Stamp(t0.Add(time.Duration(sec) * time.Second)), Event: name, Session: session}
}

func TestValidSessionAndFileName(t *testing.T) {
	tests := []struct {
		id    string
		valid bool
		file  string
	}{
		{"3f2a9c1e-7b4d-4e55-9a0b-1c2d3e4f5a6b", true, "3f2a9c1e-7b4d-4e55-9a0b-1c2d3e4f5a6b.jsonl"},
		{"abc_DEF.1", true, "abc_DEF.1.jsonl"},
		{"", false, "no-session.jsonl"},
		{".hidden", false, "no-session.jsonl"},
		{"..", false, "no-session.jsonl"},
		{"-x", false, "no-session.jsonl"},
		{"../../etc/passwd", false, "no-session.jsonl"},
		{"a/b", false, "no-session.jsonl"},
		{"a\\b", false, "no-session.jsonl"},
		{"a\x00b", false, "no-session.jsonl"},
		{"sp ace", false, "no-session.jsonl"},
		{"ünï", false, "no-session.jsonl"},
		{strings.Repeat("a", 128), true, strings.Repeat("a", 128) + ".jsonl"},
		{strings.Repeat("a", 129), false, "no-session.jsonl"},
	}
	for _, tt := range tests {
		if got := ValidSession(tt.id); got != tt.valid {
			t.Errorf("ValidSession(%q) = %v, want %v", tt.id, got, tt.valid)
		}
		if got := FileName(tt.id); got != tt.file {
			t.Errorf("FileName(%q) = %q, want %q", tt.id, got, tt.file)
		}
	}
}

func FuzzValidSession(f *testing.F) {
	for _, s := range []string{"abc", "..", "a/b", "", ".x", "x.jsonl"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name := FileName(s)
		if strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") || !IsLogName(name) {
			t.Fatalf("FileName(%q) = %q is not a safe log name", s, name)
		}
		if filepath.Base(name) != name {
			t.Fatalf("FileName(%q) = %q is not one path element", s, name)
		}
	})
}

func TestCapAndFirstLine(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 3, "hel"},
		{"héllo", 2, "hé"},
		{"日本語テキスト", 3, "日本語"},
		{"bad\xffutf8", 20, "badutf8"},
		{"", 5, ""},
	}
	for _, tt := range tests {
		if got := Cap(tt.in, tt.n); got != tt.want {
			t.Errorf("Cap(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	if got := FirstLine("Exit code 1\nstderr..."); got != "Exit code 1" {
		t.Errorf("FirstLine = %q", got)
	}
	if got := FirstLine("a\r\nb"); got != "a" {
		t.Errorf("FirstLine(crlf) = %q", got)
	}
}

func TestMarshalIsOneLine(t *testing.T) {
	e := ev(0, "PostToolUse", "s1")
	e.Tool, e.Command, e.HookUS = "Bash", "echo '<a & b>'\nls", 42
	line, err := Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("Marshal = %q, want one line", line)
	}
	want := `{"ts":"2026-07-21T10:00:00.000Z","event":"PostToolUse","session":"s1","tool":"Bash","command":"echo '<a & b>'\nls","hook_us":42}` + "\n"
	if string(line) != want {
		t.Errorf("Marshal =\n%s want\n%s", line, want)
	}
	back, ok := Parse(line[:len(line)-1])
	if !ok || back != *e {
		t.Errorf("Parse(Marshal(e)) = %+v, %v", back, ok)
	}
}

func TestParseRejects(t *testing.T) {
	for _, line := range []string{"", "\x00\x00\x00", "not json", "[1,2]", `{"event":"X"}`, `{"ts":"2026-07-21T10:00:00.000Z"}`, `{"ts":"yesterday","event":"X"}`, `{"ts":"2026-07-21T10:00:00.000Z","event":"X"`} {
		if _, ok := Parse([]byte(line)); ok {
			t.Errorf("Parse(%q) accepted", line)
		}
	}
}

func TestAppendAndRead(t *testing.T) {
	tr, dir := openTree(t)
	ctx := context.Background()
	for _, e := range []*Event{ev(2, "PostToolUse", "s1"), ev(1, "SessionStart", "s1"), ev(3, "Notification", "s2"), ev(4, "Stop", ""), ev(5, "Stop", "../evil")} {
		if err := Append(ctx, tr, "alice", e); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"s1.jsonl", "s2.jsonl", "no-session.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, "alice/events", f)); err != nil {
			t.Errorf("missing log %s: %v", f, err)
		}
	}
	// A torn last line and junk are skipped by readers.
	f, _ := os.OpenFile(filepath.Join(dir, "alice/events/s2.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("garbage\n{\"ts\":\"2026-07-21T10:00:09.000Z\",\"event\":\"Torn\"")
	f.Close()
	os.WriteFile(filepath.Join(dir, "alice/events/s1.jsonl.sync-conflict-1"), []byte(`{"ts":"2026-07-21T10:00:00.000Z","event":"Decoy","session":"s1"}`+"\n"), 0o666)

	tests := []struct {
		name   string
		filter Filter
		want   string
	}{
		{"all, by time", Filter{}, "SessionStart PostToolUse Notification Stop Stop"},
		{"one session", Filter{Session: "s1"}, "SessionStart PostToolUse"},
		{"no session", Filter{Session: "no-session"}, "Stop Stop"},
		{"unknown session", Filter{Session: "nope"}, ""},
		{"since", Filter{Since: t0.Add(3 * time.Second)}, "Notification Stop Stop"},
		{"session and since", Filter{Session: "s1", Since: t0.Add(2 * time.Second)}, "PostToolUse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, err := Read(tr, "alice", tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, r := range recs {
				names = append(names, r.Event.Event)
			}
			if got := strings.Join(names, " "); got != tt.want {
				t.Errorf("Read = %q, want %q", got, tt.want)
			}
		})
	}
	if recs, err := Read(tr, "bob", Filter{}); err != nil || len(recs) != 0 {
		t.Errorf("Read(no events folder) = %v, %v", recs, err)
	}
	// The next append repairs the torn line.
	if err := Append(ctx, tr, "alice", ev(6, "Stop", "s2")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "alice/events/s2.jsonl"))
	if strings.Contains(string(data), "Torn") || !strings.HasSuffix(string(data), "\"hook_us\":0}\n") {
		t.Errorf("torn tail not repaired: %q", data)
	}
}

func TestTailAndLatest(t *testing.T) {
	tr, dir := openTree(t)
	ctx := context.Background()
	for i := range 2000 {
		e := ev(i, "PostToolUse", "big")
		e.Tool = "Bash"
		e.Command = fmt.Sprintf("echo %d", i)
		Append(ctx, tr, "alice", e)
	}
	evs, err := Tail(tr, "alice", "big", 4096)
	if err != nil || len(evs) == 0 {
		t.Fatalf("Tail = %d events, %v", len(evs), err)
	}
	if got, want := evs[len(evs)-1].Command, "echo 1999"; got != want {
		t.Errorf("last = %q, want %q", got, want)
	}
	if len(evs) > 4096/60 {
		t.Errorf("Tail read %d events from 4 KiB", len(evs))
	}
	if evs, err := Tail(tr, "alice", "missing", 4096); err != nil || evs != nil {
		t.Errorf("Tail(missing) = %v, %v", evs, err)
	}
	Append(ctx, tr, "alice", ev(0, "Stop", "older"))
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "alice/events/older.jsonl"), old, old)
	rel, _, ok := Latest(tr, "alice")
	if !ok || rel != "alice/events/big.jsonl" {
		t.Errorf("Latest = %q, %v", rel, ok)
	}
	if _, _, ok := Latest(tr, "bob"); ok {
		t.Errorf("Latest(bob) found a log")
	}
}

// WrittenSince keeps the logs last written at or after the time, and
// every log for a zero time; a symlink, a folder or another file is no
// log, and an agent without events has none.
func TestWrittenSince(t *testing.T) {
	tr, dir := openTree(t)
	events := filepath.Join(dir, "alice", "events")
	os.MkdirAll(filepath.Join(events, "folder.jsonl"), 0o777)
	base := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	for i, name := range []string{"s0.jsonl", "s1.jsonl", "s2.jsonl", "notes.txt", ".s2.state.json"} {
		p := filepath.Join(events, name)
		os.WriteFile(p, []byte("{}\n"), 0o666)
		at := base.Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, at, at)
	}
	os.Symlink("s2.jsonl", filepath.Join(events, "link.jsonl"))
	tests := []struct {
		since time.Time
		want  []string
	}{
		{time.Time{}, []string{"s0.jsonl", "s1.jsonl", "s2.jsonl"}},
		{base.Add(time.Minute), []string{"s1.jsonl", "s2.jsonl"}},
		{base.Add(time.Minute + time.Nanosecond), []string{"s2.jsonl"}},
		{base.Add(time.Hour), nil},
	}
	for _, tt := range tests {
		got, err := WrittenSince(tr, "alice", tt.since)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("WrittenSince(%v) = %q, %v; want %q", tt.since, got, err, tt.want)
		}
	}
	if got, err := WrittenSince(tr, "bob", base); err != nil || got != nil {
		t.Errorf("WrittenSince(bob) = %q, %v", got, err)
	}
}

func TestPrune(t *testing.T) {
	tr, dir := openTree(t)
	ctx := context.Background()
	Append(ctx, tr, "alice", ev(0, "Stop", "old"))
	Append(ctx, tr, "alice", ev(0, "Stop", "new"))
	evDir := filepath.Join(dir, "alice/events")
	os.WriteFile(filepath.Join(evDir, ".old.retry.json"), []byte("{}"), 0o666)
	os.WriteFile(filepath.Join(evDir, "notes.txt"), []byte("keep"), 0o666)
	longAgo := time.Now().Add(-40 * 24 * time.Hour)
	for _, n := range []string{"old.jsonl", ".old.retry.json", "notes.txt"} {
		os.Chtimes(filepath.Join(evDir, n), longAgo, longAgo)
	}
	removed, err := Prune(tr, "alice", time.Now().Add(-DefaultRetention))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(removed, ","), ".old.retry.json,old.jsonl"; got != want {
		t.Errorf("removed %q, want %q", got, want)
	}
	for n, want := range map[string]bool{"old.jsonl": false, ".old.retry.json": false, "new.jsonl": true, "notes.txt": true} {
		_, err := os.Stat(filepath.Join(evDir, n))
		if (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", n, err == nil, want)
		}
	}
	if removed, err := Prune(tr, "bob", time.Now()); err != nil || removed != nil {
		t.Errorf("Prune(no folder) = %v, %v", removed, err)
	}
}

func TestStateNames(t *testing.T) {
	if got, want := StatePath("alice", "s1", "retry"), "alice/events/.s1.retry.json"; got != want {
		t.Errorf("StatePath = %q, want %q", got, want)
	}
	if got, want := StatePath("alice", "../x", "state"), "alice/events/.no-session.state.json"; got != want {
		t.Errorf("StatePath = %q, want %q", got, want)
	}
	for name, want := range map[string]bool{".s1.retry.json": true, ".no-session.state.json": true, "s1.jsonl": false, ".s1.json": false, "..json": false, ".s1.retry.json12345": false} {
		if got := IsStateName(name); got != want {
			t.Errorf("IsStateName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	if got := FormatDuration(30 * 24 * time.Hour); got != "30d" {
		t.Errorf("FormatDuration = %q", got)
	}
	if got := FormatDuration(90 * time.Minute); got != "1h30m0s" {
		t.Errorf("FormatDuration = %q", got)
	}
}

func TestFollower(t *testing.T) {
	tr, dir := openTree(t)
	ctx := context.Background()
	fl := NewFollower(tr, "alice", Filter{})
	if recs, err := fl.Poll(); err != nil || len(recs) != 0 {
		t.Fatalf("first Poll on nothing = %v, %v", recs, err)
	}
	Append(ctx, tr, "alice", ev(1, "SessionStart", "s1"))
	Append(ctx, tr, "alice", ev(2, "PreToolUse", "s1"))
	if recs, _ := fl.Poll(); len(recs) != 2 {
		t.Fatalf("Poll = %d records, want 2", len(recs))
	}
	if recs, _ := fl.Poll(); len(recs) != 0 {
		t.Fatalf("Poll again = %d records, want 0", len(recs))
	}
	// A half-written line is taken only once complete.
	p := filepath.Join(dir, "alice/events/s1.jsonl")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	line, _ := Marshal(ev(3, "PostToolUse", "s1"))
	f.Write(line[:10])
	if recs, _ := fl.Poll(); len(recs) != 0 {
		t.Fatalf("Poll saw a partial line")
	}
	f.Write(line[10:])
	f.Close()
	Append(ctx, tr, "alice", ev(4, "Stop", "s2"))
	recs, _ := fl.Poll()
	if len(recs) != 2 || recs[0].Event.Event != "PostToolUse" || recs[1].Event.Event != "Stop" {
		t.Fatalf("Poll = %+v", recs)
	}
	if string(recs[0].Raw)+"\n" != string(line) {
		t.Errorf("Raw = %q, want %q", recs[0].Raw, line)
	}
}

func TestFollowEmitsAppends(t *testing.T) {
	tr, _ := openTree(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	Append(ctx, tr, "alice", ev(1, "SessionStart", "s1"))
	got := make(chan string, 10)
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, tr, "alice", Filter{Session: "s1"}, 20*time.Millisecond, func(rs []Record) error {
			for _, r := range rs {
				got <- r.Event.Event
			}
			return nil
		})
	}()
	if e := <-got; e != "SessionStart" {
		t.Fatalf("first = %q", e)
	}
	Append(ctx, tr, "alice", ev(2, "Stop", "other"))
	Append(ctx, tr, "alice", ev(3, "PostToolUse", "s1"))
	if e := <-got; e != "PostToolUse" {
		t.Fatalf("second = %q", e)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestAppendConcurrentGoroutines(t *testing.T) {
	tr, dir := openTree(t)
	const writers, each = 16, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				e := ev(i, "PostToolUse", "s1")
				e.Command = fmt.Sprintf("w%d-%d", w, i)
				if err := Append(context.Background(), tr, "alice", e); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	countCommands(t, filepath.Join(dir, "alice/events/s1.jsonl"), writers*each)
}

func countCommands(t *testing.T, path string, want int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range Lines(data) {
		e, ok := Parse(l)
		if !ok {
			t.Fatalf("bad line %q", l)
		}
		seen[e.Command] = true
	}
	if len(seen) != want || bytes.Count(data, []byte("\n")) != want {
		t.Errorf("%d distinct of %d lines, want %d", len(seen), bytes.Count(data, []byte("\n")), want)
	}
}

// TestAppendHelper is the child of TestAppendConcurrentProcesses.
func TestAppendHelper(t *testing.T) {
	dir := os.Getenv("ST_EVENTS_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	tr, err := fsutil.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	w := os.Getenv("ST_EVENTS_HELPER_W")
	n, _ := strconv.Atoi(os.Getenv("ST_EVENTS_HELPER_N"))
	for i := range n {
		e := ev(i, "PostToolUse", "s1")
		e.Command = fmt.Sprintf("p%s-%d", w, i)
		if err := Append(context.Background(), tr, "alice", e); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAppendConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	_, dir := openTree(t)
	const procs, each = 8, 100
	var cmds []*exec.Cmd
	for w := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAppendHelper$")
		cmd.Env = append(os.Environ(), "ST_EVENTS_HELPER_DIR="+dir,
			"ST_EVENTS_HELPER_W="+strconv.Itoa(w), "ST_EVENTS_HELPER_N="+strconv.Itoa(each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("helper: %v", err)
		}
	}
	countCommands(t, filepath.Join(dir, "alice/events/s1.jsonl"), procs*each)
}

func benchAppend(b *testing.B, lines int) {
	tr, dir := openTree(b)
	e := ev(0, "PostToolUse", "s1")
	e.Tool, e.Path, e.Bytes, e.HookUS = "Read", "/home/user/project/internal/events/events.go", 5123, 140
	line, _ := Marshal(e)
	os.MkdirAll(filepath.Join(dir, "alice/events"), 0o777)
	if lines > 0 {
		os.WriteFile(filepath.Join(dir, "alice/events/s1.jsonl"), bytes.Repeat(line, lines), 0o666)
	}
	ctx := context.Background()
	for b.Loop() {
		if err := Append(ctx, tr, "alice", e); err != nil {
			b.Fatal(err)
		}
	}
}

// The two figures must match: an append never reads the log.
func BenchmarkAppendEmptyLog(b *testing.B)  { benchAppend(b, 0) }
func BenchmarkAppend200kLines(b *testing.B) { benchAppend(b, 200_000) }

// FuzzParse reads arbitrary log bytes: Lines and Parse never panic and
// a parsed event always has a time and a name.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"ts":"2026-07-21T10:00:00.000Z","event":"Stop","session":"s1","hook_us":1}` + "\n"))
	f.Add([]byte("\x00\x00\n{\"ts\":1}\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, l := range Lines(data) {
			if e, ok := Parse(l); ok {
				if _, tok := e.Time(); !tok || e.Event == "" {
					t.Fatalf("accepted %q", l)
				}
			}
		}
	})
}

// EachBack decodes each line afresh: a field of one line never shows in
// the next, which reuses the Event; a bad line, a line the bound cut and
// a torn last line are skipped as TailFile skips them.
func TestEachBackDecodesEachLineAfresh(t *testing.T) {
	tr, dir := openTree(t)
	log := `{"ts":"2026-01-02T03:04:05.000Z","event":"PostToolUse","session":"s","tool":"Edit","ctx_tokens":5,"hook_us":1}` + "\n" +
		`{"ts":"2026-01-02T03:04:06.000Z","event":"Stop","session":"s","hook_us":2}` + "\n" +
		"not json\n" +
		`{"ts":"2026-01-02T03:04:07.000Z","event":"PreCompact","agent_id":"a1","hook_us":3}` + "\n" +
		`{"ts":"2026-01-02T03:04:08.000Z","event":"Torn"`
	if err := os.MkdirAll(filepath.Join(dir, "alice/events"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "alice/events/s.jsonl"), []byte(log), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, max := range []int64{1 << 20, int64(len(log)) - 10} {
		want, err := TailFile(tr, "alice/events/s.jsonl", max)
		if err != nil {
			t.Fatal(err)
		}
		var got []Event
		if err := EachBack(tr, "alice/events/s.jsonl", max, nil, func(e *Event) bool { got = append(got, *e); return true }); err != nil {
			t.Fatal(err)
		}
		slices.Reverse(got)
		if !reflect.DeepEqual(got, want) || len(want) == 0 {
			t.Errorf("max %d: EachBack %+v\nTailFile %+v", max, got, want)
		}
		if last := want[len(want)-1]; last.Tool != "" || last.CtxTokens != 0 || last.Event != "PreCompact" {
			t.Errorf("max %d: the last event carries another line's fields: %+v", max, last)
		}
	}
}

// EachBack hands over TailFile's events newest first, whatever the
// bound and wherever its first read ends, and stops when asked.
func TestEachBackMatchesTailFile(t *testing.T) {
	tr, dir := openTree(t)
	if err := os.MkdirAll(filepath.Join(dir, "alice/events"), 0o777); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 5, 300, 4000, 8 << 10, 60 << 10} {
		var log []byte
		for i := 0; len(log) < size; i++ {
			switch rnd.IntN(10) {
			case 0:
				log = append(log, "not json\n"...)
			case 1:
				log = append(log, strings.Repeat("x", rnd.IntN(9000))+"\n"...)
			default:
				line := fmt.Sprintf(`{"ts":"2026-01-02T03:04:05.000Z","event":"E%d","command":%q,"hook_us":1}`+"\n", i, strings.Repeat("c", rnd.IntN(300)))
				log = append(log, line...)
			}
		}
		if rnd.IntN(2) == 0 {
			log = append(log, `{"ts":"2026-01-02T03:04:05.000Z","event":"Torn"`...)
		}
		if err := os.WriteFile(filepath.Join(dir, "alice/events/s.jsonl"), log, 0o666); err != nil {
			t.Fatal(err)
		}
		for _, max := range []int64{100, 4 << 10, 8 << 10, 8<<10 + 37, 30 << 10, 64 << 10, 1 << 20} {
			want, err := TailFile(tr, "alice/events/s.jsonl", max)
			if err != nil {
				t.Fatal(err)
			}
			slices.Reverse(want)
			var got []Event
			if err := EachBack(tr, "alice/events/s.jsonl", max, nil, func(e *Event) bool { got = append(got, *e); return true }); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("log %d bytes, max %d: EachBack gave %d events, TailFile %d", len(log), max, len(got), len(want))
			}
			if len(want) > 3 {
				got = got[:0]
				_ = EachBack(tr, "alice/events/s.jsonl", max, nil, func(e *Event) bool { got = append(got, *e); return len(got) < 3 })
				if !reflect.DeepEqual(got, want[:3]) {
					t.Errorf("log %d bytes, max %d: stopped after %d events, want 3", len(log), max, len(got))
				}
			}
		}
	}
	if err := EachBack(tr, "alice/events/none.jsonl", 1<<20, nil, func(*Event) bool { t.Error("an event from a missing log"); return true }); err != nil {
		t.Errorf("EachBack(missing) = %v", err)
	}
}

// FuzzEachBack checks EachBack against TailFile on any log, repeated to
// cross the first read's 8 KiB, under any bound.
func FuzzEachBack(f *testing.F) {
	f.Add([]byte(`{"ts":"2026-01-02T03:04:05.000Z","event":"Stop","hook_us":1}`+"\nnot json\n"), uint8(200), uint32(9000))
	f.Add([]byte("x\n{\"ts\":\"2026-01-02T03:04:05.000Z\",\"event\":\"E\"}"), uint8(3), uint32(5))
	f.Fuzz(func(t *testing.T, chunk []byte, reps uint8, max uint32) {
		tr, dir := openTree(t)
		if err := os.MkdirAll(filepath.Join(dir, "a/events"), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a/events/s.jsonl"), bytes.Repeat(chunk, int(reps)), 0o666); err != nil {
			t.Fatal(err)
		}
		bound := int64(max%(128<<10)) + 1
		want, err := TailFile(tr, "a/events/s.jsonl", bound)
		if err != nil {
			t.Fatal(err)
		}
		slices.Reverse(want)
		var got []Event
		if err := EachBack(tr, "a/events/s.jsonl", bound, nil, func(e *Event) bool { got = append(got, *e); return true }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Fatalf("bound %d: EachBack %d events, TailFile %d", bound, len(got), len(want))
		}
	})
}
