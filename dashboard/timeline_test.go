package dashboard

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
)

func logLine(at time.Time, event, extra string) string {
	return fmt.Sprintf(`{"ts":%q,"event":%q,"session":"sess-1234567890"%s,"hook_us":1}`, events.Stamp(at), event, extra) + "\n"
}

// TestTimelineKinds: tool calls, failures, compactions, API errors and
// retries are told apart, newest first, across session logs.
func TestTimelineKinds(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	root := writeStore(t, map[string]string{
		"alice/events/a.jsonl": logLine(t0, "PostToolUse", `,"tool":"Bash"`) +
			logLine(t0.Add(2*time.Second), "PostToolUseFailure", `,"tool":"Bash","error":"exit 1"`) +
			logLine(t0.Add(4*time.Second), "StopFailure", `,"error":"rate_limit","attempt":2`),
		"alice/events/b.jsonl": logLine(t0.Add(time.Second), "PreCompact", `,"type":"auto"`) +
			logLine(t0.Add(3*time.Second), "StopFailure", `,"error":"overloaded"`) +
			logLine(t0.Add(5*time.Second), "Notification", `,"type":"permission_prompt","title":"Bash"`) +
			`{"torn":`,
		"alice/events/.a.state.json": "{}",
	})
	tr, _ := fsutil.Open(root)
	defer tr.Close()
	tl := readTimeline(tr, "alice")
	var kinds []string
	for _, e := range tl.Entries {
		kinds = append(kinds, e.Kind)
	}
	want := "waiting,retry,api-error,failure,compaction,tool"
	if strings.Join(kinds, ",") != want {
		t.Errorf("kinds = %v, want %s", kinds, want)
	}
	if tl.Total != 6 || tl.Partial || tl.Counts[kindFailure] != 1 || tl.Entries[0].Session != "sess-123" {
		t.Errorf("timeline = %+v", tl)
	}
	if !tl.From.Equal(t0) || !tl.To.Equal(t0.Add(5*time.Second)) || len(tl.Bars) == 0 {
		t.Errorf("chart span %v..%v, %d bars", tl.From, tl.To, len(tl.Bars))
	}
	for _, b := range tl.Bars {
		if b.Y < 0 || b.H <= 0 || b.Y+b.H > chartH+1e-9 || b.X < 0 || b.X+b.W > chartW {
			t.Errorf("bar outside the chart: %+v", b)
		}
	}
}

// TestTimelineReadsTails: a log far larger than the budget is read from
// its end only (long lines, so the tail holds fewer events than the
// timeline keeps); the newest events are the ones shown.
func TestTimelineReadsTails(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var b strings.Builder
	n := 0
	line := func(i int) string {
		return logLine(t0.Add(time.Duration(i)*time.Second), "PostToolUse", `,"tool":"Read","path":"`+strings.Repeat("p", 2000)+`"`)
	}
	for b.Len() < 3*timelineBudget {
		b.WriteString(line(n))
		n++
	}
	root := writeStore(t, map[string]string{"alice/events/big.jsonl": b.String()})
	tr, _ := fsutil.Open(root)
	defer tr.Close()
	tl := readTimeline(tr, "alice")
	inTail := timelineTail / len(line(0))
	if !tl.Partial || tl.Total < inTail-1 || tl.Total > inTail || len(tl.Entries) != min(tl.Total, timelineShow) {
		t.Errorf("total %d (the tail holds %d), shown %d, partial %v", tl.Total, inTail, len(tl.Entries), tl.Partial)
	}
	if last := t0.Add(time.Duration(n-1) * time.Second); !tl.Entries[0].Time.Equal(last) {
		t.Errorf("newest = %v, want %v", tl.Entries[0].Time, last)
	}
}
