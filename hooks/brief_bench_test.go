package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

// briefStore builds a store of n agents as scripts/bench-brief does: each
// with a status, two inbox messages and an event log of 40 lines; 10
// wait on a human, 5 are stopped by an API error, 5 thrash.
func briefStore(b *testing.B, n int, now time.Time) string {
	b.Helper()
	root := b.TempDir()
	ts := now.UTC().Format("2006-01-02T15:04:05.000Z")
	for i := range n {
		id := fmt.Sprintf("a%04d", i)
		d := filepath.Join(root, id)
		for _, sub := range []string{"inbox", "archive", "events"} {
			if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		st := [...]string{"busy", "available", "offline"}[i%3]
		write := func(rel, data string) {
			if err := os.WriteFile(filepath.Join(d, rel), []byte(data), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		write("status", st+"\n")
		for m := 1; m <= 2; m++ {
			write(fmt.Sprintf("inbox/%d-abc%d%dxy.md", now.UnixMilli()+int64(m), m, i%10), "---\nfrom: a0001\nsubject: m\n---\nhello\n")
		}
		var log strings.Builder
		for range 20 {
			fmt.Fprintf(&log, `{"ts":"%s","event":"PreToolUse","session":"s%d","tool":"Bash","command":"go test ./...","input":"0123456789ab","hook_us":400}`+"\n", ts, i)
			fmt.Fprintf(&log, `{"ts":"%s","event":"PostToolUse","session":"s%d","tool":"Bash","command":"go test ./...","input":"0123456789ab","bytes":32,"hook_us":400}`+"\n", ts, i)
		}
		switch {
		case i >= 1 && i <= 10:
			fmt.Fprintf(&log, `{"ts":"%s","event":"Notification","session":"s%d","type":"permission_prompt","message":"Claude needs your permission to use Bash","cwd":"/w/p","hook_us":400}`+"\n", ts, i)
		case i >= 11 && i <= 15:
			fmt.Fprintf(&log, `{"ts":"%s","event":"StopFailure","session":"s%d","error":"overloaded","hook_us":400}`+"\n", ts, i)
		case i >= 16 && i <= 20:
			for range 3 {
				fmt.Fprintf(&log, `{"ts":"%s","event":"PostToolUseFailure","session":"s%d","tool":"Bash","input":"x","error":"exit 1","hook_us":400}`+"\n", ts, i)
			}
		}
		write(fmt.Sprintf("events/s%d.jsonl", i), log.String())
	}
	return root
}

// BenchmarkBrief is the fleet brief's cost in a session-start hook at
// 1,000 agents: the brief alone, and session-start's text with it off
// and on.
func BenchmarkBrief(b *testing.B) {
	now := time.Now()
	root := briefStore(b, 1000, now)
	opt := Options{Root: root, Agent: "a0000", Now: func() time.Time { return now }, Config: DefaultConfig()}
	b.Run("brief", func(b *testing.B) {
		for b.Loop() {
			t, err := fsutil.Open(root)
			if err != nil {
				b.Fatal(err)
			}
			if briefText(readFleet(t, opt, now), false, now, 2500) == "" {
				b.Fatal("no brief")
			}
			t.Close()
		}
	})
	for _, mode := range []string{BriefOff, BriefAuto} {
		o := opt
		o.Config.Brief = mode
		b.Run("session-start/"+mode, func(b *testing.B) {
			for b.Loop() {
				sessionStartText(o, DefaultClaudeBudget)
			}
		})
	}
}
