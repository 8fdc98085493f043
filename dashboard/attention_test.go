package dashboard

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	hostfleet "github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

var at0 = time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)

// ev is an event line s seconds after at0; extra is more JSON fields.
func ev(s int, event, extra string) string {
	return logLine(at0.Add(time.Duration(s)*time.Second), event, extra)
}

// fold folds log lines into an activity.
func fold(t *testing.T, lines ...string) activity {
	t.Helper()
	var a activity
	for _, l := range lines {
		e, ok := events.Parse([]byte(strings.TrimSuffix(l, "\n")))
		if !ok {
			t.Fatalf("bad line %q", l)
		}
		a.feed(&e)
	}
	return a
}

func TestActivityFold(t *testing.T) {
	fail := func(s int, input string) string {
		return ev(s, "PostToolUseFailure", `,"tool":"Bash","command":"make test","input":"`+input+`","error":"exit status 2"`)
	}
	perm := ev(5, "Notification", `,"type":"permission_prompt","message":"Claude needs your permission to use Bash"`)
	overloaded := func(s, attempt int) string {
		return ev(s, "StopFailure", fmt.Sprintf(`,"error":"overloaded","attempt":%d,"retry_at":%q`, attempt, events.Stamp(at0.Add(time.Duration(s+30)*time.Second))))
	}
	tests := []struct {
		name  string
		lines []string
		want  string // waiting / api-error / thrashing summary
	}{
		{"nothing", nil, ""},
		{"waiting on the real question", []string{ev(1, "PostToolUse", `,"tool":"Read"`), perm}, "waiting: Claude needs your permission to use Bash"},
		{"answered", []string{perm, ev(6, "PostToolUse", `,"tool":"Bash"`)}, ""},
		{"an idle notice does not answer", []string{perm, ev(6, "Notification", `,"type":"auth_success"`)}, "waiting: Claude needs your permission to use Bash"},
		{"api error retrying", []string{overloaded(10, 1), overloaded(40, 2)}, "api-error: overloaded attempt 2 since 10 due 70"},
		{"api error without retry", []string{ev(10, "StopFailure", `,"error":"billing_error"`)}, "api-error: billing_error attempt 0 since 10 due -"},
		{"api error superseded by a prompt", []string{overloaded(10, 1), ev(20, "UserPromptSubmit", "")}, ""},
		{"thrashing from three same failures", []string{fail(1, "a"), fail(2, "a"), fail(3, "a")}, "thrashing: Bash make test 3 since 1"},
		{"two are not thrashing", []string{fail(1, "a"), fail(2, "a")}, ""},
		{"another input starts over", []string{fail(1, "a"), fail(2, "a"), fail(3, "b"), fail(4, "b")}, ""},
		{"a success ends it", []string{fail(1, "a"), fail(2, "a"), fail(3, "a"), ev(4, "PostToolUse", `,"tool":"Bash"`)}, ""},
		{"a stop ends it", []string{fail(1, "a"), fail(2, "a"), fail(3, "a"), ev(4, "Stop", "")}, ""},
	}
	for _, tt := range tests {
		a := fold(t, tt.lines...)
		got := ""
		switch {
		case a.Waiting != nil:
			got = "waiting: " + a.Waiting.Question()
		case a.APIError != nil:
			e := a.APIError
			due := "-"
			if !e.RetryAt.IsZero() {
				due = fmt.Sprint(e.RetryAt.Sub(at0).Seconds())
			}
			got = fmt.Sprintf("api-error: %s attempt %d since %v due %s", e.Class, e.Attempt, e.Since.Sub(at0).Seconds(), due)
		case a.Thrashing() != nil:
			th := a.Thrashing()
			got = fmt.Sprintf("thrashing: %s %s %d since %v", th.Tool, th.Target, th.Failures, th.Since.Sub(at0).Seconds())
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestActivityFillAndTools(t *testing.T) {
	a := fold(t,
		ev(1, "PostToolUse", `,"tool":"Read","path":"/work/proj/internal/parser/lexer.go","ctx_tokens":42000,"model":"claude-sonnet-4-5"`),
		ev(2, "PreCompact", `,"type":"auto"`),
		ev(3, "PostToolUse", `,"tool":"Bash","command":"go test ./...\necho done"`),
		ev(4, "Stop", `,"ctx_tokens":84000,"model":"claude-sonnet-4-5"`),
		ev(5, "PreCompact", `,"type":"manual"`),
	)
	if a.Fill.Tokens != 84000 || a.Fill.Model != "claude-sonnet-4-5" || a.Fill.Compactions != 2 {
		t.Errorf("fill = %+v", a.Fill)
	}
	if a.LastTool != "Bash" || a.LastTarget != "go test ./..." {
		t.Errorf("last tool = %q %q", a.LastTool, a.LastTarget)
	}
	for _, tt := range []struct{ path, cmd, want string }{
		{"/work/proj/internal/parser/lexer.go", "", "…/parser/lexer.go"},
		{"lexer.go", "", "lexer.go"},
		{"/lexer.go", "", "…/lexer.go"},
		{"", strings.Repeat("x", 60), strings.Repeat("x", 47) + "…"},
	} {
		if got := target(&events.Event{Path: tt.path, Command: tt.cmd}); got != tt.want {
			t.Errorf("target(%q, %q) = %q, want %q", tt.path, tt.cmd, got, tt.want)
		}
	}
}

func TestSpark(t *testing.T) {
	var s spark
	for _, m := range []int{0, 1, 7, 7, 59, 61, 64} {
		s.add(at0.Add(time.Duration(m) * time.Minute))
	}
	// The hour ending at 11:04, in buckets of 5 minutes from 10:05 to
	// 11:00, oldest first: 10:00 and 10:01 are out of it.
	got := s.at(at0.Add(64 * time.Minute))
	if want := [sparkBuckets]int{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2}; got != want {
		t.Errorf("spark = %v, want %v", got, want)
	}
	if got := s.at(at0.Add(3 * time.Hour)); got != [sparkBuckets]int{} {
		t.Errorf("two hours later = %v", got)
	}
}

// TestAttentionOrder: trouble first (waiting on a human, API error,
// thrashing, busy but silent), then busy, available, offline; the
// longest in a group first; by name on request.
func TestAttentionOrder(t *testing.T) {
	now := at0.Add(time.Hour)
	ago := func(m int) time.Time { return now.Add(-time.Duration(m) * time.Minute) }
	w := func(m int) *events.Waiting { return &events.Waiting{Type: "idle_prompt", Since: events.Stamp(ago(m))} }
	rows := []Row{
		{ID: "off", Status: "offline", LastEvent: ago(50)},
		{ID: "avail", Status: "available", LastEvent: ago(1)},
		{ID: "busy-new", Status: "busy", LastEvent: ago(1)},
		{ID: "busy-old", Status: "busy", LastEvent: ago(5)},
		{ID: "stale", Status: "busy", LastEvent: ago(30)},
		{ID: "thrash", Status: "busy", Thrash: &Thrash{Tool: "Bash", Failures: 3, Since: ago(2)}, LastEvent: ago(1)},
		{ID: "api", Status: "away", APIError: &APIError{Class: "overloaded", Since: ago(3)}},
		{ID: "wait-new", Status: "busy", Waiting: w(1)},
		{ID: "wait-old", Status: "available", Waiting: w(20)},
		{ID: "odd", Status: "weird"},
		{ID: "aged", Status: "unknown", Claimed: "busy", LastEvent: ago(20)},
		{ID: "aged-away", Status: "unknown", Claimed: "away", LastEvent: ago(20)},
	}
	for i := range rows {
		rows[i].attend(now)
	}
	sortRows(rows, orderAttention)
	var got []string
	for _, r := range rows {
		got = append(got, r.ID+":"+r.Group)
	}
	want := "wait-old:waiting wait-new:waiting api:api-error thrash:thrashing stale:stale aged:stale busy-old:busy busy-new:busy avail:available odd:unknown aged-away:unknown off:offline"
	if strings.Join(got, " ") != want {
		t.Errorf("order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	sm := summarise(rows, view{Order: orderAttention})
	if sm.Alarm != 6 {
		t.Errorf("alarm = %d, want 6", sm.Alarm)
	}
	if shown := arrange(rows, view{Order: orderAttention, Show: "busy"}); len(shown) != 2 || shown[0].ID != "busy-old" {
		t.Errorf("show=busy: %v", shown)
	}
	sortRows(rows, orderName)
	if rows[0].ID != "aged" || rows[len(rows)-1].ID != "wait-old" {
		t.Errorf("by name: %s … %s", rows[0].ID, rows[len(rows)-1].ID)
	}
}

func TestViewOf(t *testing.T) {
	for _, tt := range []struct{ q, href string }{
		{"", "/"},
		{"show=waiting", "/?show=waiting"},
		{"show=nonsense&order=name", "/?order=name"},
		{"order=attention", "/"},
		{"show=stale&order=name", "/?order=name&show=stale"},
	} {
		q, _ := url.ParseQuery(tt.q)
		if got := viewOf(q).href(); got != tt.href {
			t.Errorf("%q: %q, want %q", tt.q, got, tt.href)
		}
	}
}

func TestPlainLine(t *testing.T) {
	for _, tt := range []struct {
		src  string
		max  int
		want string
	}{
		{"## Rewriting the lexer\n", 80, "Rewriting the lexer"},
		{"\n\n| step | state |\n|---|---|\n| lex | done |\n", 80, "step · state"},
		{"---\n\n- [ ] **fuzz** the `parser`\n", 80, "fuzz the parser"},
		{"> see [the plan](http://x/y) *now*\n", 80, "see the plan now"},
		{"```\ncode first\n```\n", 80, "code first"},
		{"1. first step\n", 80, "first step"},
		{"<!-- note -->\ntext\n", 80, "text"},
		{"", 80, ""},
		{"# " + strings.Repeat("é", 200), 10, strings.Repeat("é", 9) + "…"},
	} {
		if got := plainLine(tt.src, tt.max); got != tt.want {
			t.Errorf("plainLine(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestCursorFollowsLog: the fleet reads an agent's log once, then only
// what was appended; a line being written waits for its end; a new
// session log starts over (keeping the sparkline).
func TestCursorFollowsLog(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "alice", "events")
	os.MkdirAll(dir, 0o755)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	appendTo := func(name, s string) {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	var c cursor
	appendTo("s1.jsonl", ev(1, "PreCompact", "")+ev(2, "Notification", `,"type":"idle_prompt","message":"Q"`))
	c.advance(tr, "alice")
	if c.act.Waiting == nil || c.act.Fill.Compactions != 1 {
		t.Fatalf("after the first read: %+v", c.act)
	}
	line := ev(3, "UserPromptSubmit", "")
	appendTo("s1.jsonl", line[:10])
	c.advance(tr, "alice")
	if c.act.Waiting == nil {
		t.Error("half a line answered the question")
	}
	appendTo("s1.jsonl", line[10:])
	c.advance(tr, "alice")
	if c.act.Waiting != nil || c.act.Fill.Compactions != 1 {
		t.Errorf("after the prompt: %+v", c.act)
	}
	later := time.Now().Add(time.Minute)
	appendTo("s2.jsonl", ev(4, "SessionStart", ""))
	os.Chtimes(filepath.Join(dir, "s2.jsonl"), later, later)
	c.advance(tr, "alice")
	if c.rel != "alice/events/s2.jsonl" || c.act.Fill.Compactions != 0 || sparkTotal(c.act.spark.at(at0)) != 4 {
		t.Errorf("new session: %s %+v", c.rel, c.act)
	}
}

// TestPeers: agents whose data arrives through st sync from another host
// show that host and how old its copy is; a host unsynced past the limit
// is flagged, and turns so with time alone.
func TestPeers(t *testing.T) {
	now := time.Now()
	root := writeStore(t, with(agentFolders, map[string]string{"carol/inbox/": "", "carol/archive/": ""}))
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ms := func(d time.Duration) int64 { return now.Add(-d).UnixMilli() }
	for _, r := range []hostfleet.Record{
		{Host: "here", At: ms(time.Minute), LastOK: ms(time.Minute), Agents: map[string]int64{"alice": 1}},
		{Host: "build-2", At: ms(3 * time.Minute), Agents: map[string]int64{"bob": 1}},
		{Host: "laptop", At: ms(time.Hour), Agents: map[string]int64{"carol": 1}},
	} {
		if _, err := hostfleet.Write(tr, r); err != nil {
			t.Fatal(err)
		}
	}
	s := newServer(t, root, func(c *Config) { c.Now = fixedClock(&now); c.Host = "here" })
	peer := func(id string) string {
		r, _ := s.fleet.Row(id)
		if r.Peer == nil {
			return "-"
		}
		return fmt.Sprintf("%s stale=%v", r.Peer.Name, r.Peer.Stale)
	}
	if got := peer("alice") + ", " + peer("bob") + ", " + peer("carol"); got != "-, build-2 stale=false, laptop stale=true" {
		t.Errorf("peers = %s", got)
	}
	_, body := get(t, s, "/")
	for _, want := range []string{"on build-2 · synced <time", "on laptop · synced <time", `<span class="badge g-stale">stale</span>`, "here (here)"} {
		if !strings.Contains(body, want) {
			t.Errorf("fleet page lacks %q", want)
		}
	}
	// Fifteen minutes on, build-2 has not synced again.
	now = now.Add(15 * time.Minute)
	s.changed(nil, true)
	if got := peer("bob"); got != "build-2 stale=true" {
		t.Errorf("later, bob's peer = %s", got)
	}
}

// TestRetryDue: a retry's time renders as a countdown, and once past
// without the retry running, as overdue by how long, in the fleet
// row the server renders.
func TestRetryDue(t *testing.T) {
	at0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	retryAt := at0.Add(4 * time.Minute)
	root := writeStore(t, map[string]string{
		"apis/status": "away\n",
		"apis/events/s.jsonl": logLine(at0, "StopFailure",
			fmt.Sprintf(`,"error":"overloaded","attempt":2,"retry_at":%q`, events.Stamp(retryAt))),
	})
	now := at0
	s := newServer(t, root, func(c *Config) { c.Now = fixedClock(&now) })
	for _, tc := range []struct {
		after time.Duration
		want  string
	}{
		{time.Minute, ">next in 3m</time>"},
		{4*time.Minute + 30*time.Second, ">overdue by 30s</time>"},
		{3 * time.Hour, ">overdue by 2h</time>"},
	} {
		now = at0.Add(tc.after)
		if _, body := get(t, s, "/agent/apis"); !strings.Contains(body, tc.want) {
			t.Errorf("%v after the failure: the page lacks %q", tc.after, tc.want)
		}
		// The fleet row follows it with the failure's "since 4m ago":
		// "overdue since 30s ago since 4m ago" said "since" twice.
		_, body := get(t, s, "/")
		if text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(body, ""); strings.Contains(text, "ago since") {
			i := strings.Index(text, "ago since")
			t.Errorf("%v after the failure: the fleet row says since twice: %q", tc.after, text[max(0, i-40):i+20])
		}
	}
}

// A Stop that ran before its reply was written names the transcript: the
// row shows the previous fill until the reply is there, then the reply's
// (a rescan re-derives it), and a later line's fill replaces it.
func TestRowReadsThePendingFill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	reply := func(tokens int) string {
		return fmt.Sprintf(`{"type":"assistant","message":{"model":"claude-opus-4-1","usage":{"input_tokens":%d}}}`+"\n", tokens)
	}
	if err := os.WriteFile(path, []byte(reply(42000)), 0o644); err != nil {
		t.Fatal(err)
	}
	before := at0.Add(-time.Minute)
	if err := os.Chtimes(path, before, before); err != nil {
		t.Fatal(err)
	}
	a := fold(t, ev(1, "PostToolUse", `,"tool":"Read","ctx_tokens":42000,"model":"claude-opus-4-1"`),
		ev(4, "Stop", `,"transcript":`+fmt.Sprintf("%q", path)))
	var r Row
	r.derive(&a, at0.Add(5*time.Second))
	if r.Fill.Tokens != 42000 || r.Fill.Transcript != path {
		t.Fatalf("before the reply: fill %+v; want 42000, still to read", r.Fill)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(reply(91234))
	if cerr := f.Close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	written := at0.Add(5 * time.Second)
	if err := os.Chtimes(path, written, written); err != nil {
		t.Fatal(err)
	}
	r.derive(&a, at0.Add(6*time.Second))
	if r.Fill.Tokens != 91234 || r.Fill.Transcript != "" {
		t.Errorf("after the reply: fill %+v; want 91234", r.Fill)
	}
	e, _ := events.Parse([]byte(strings.TrimSpace(ev(9, "PostToolUse", `,"ctx_tokens":95000`))))
	a.feed(&e)
	if r.derive(&a, at0.Add(10*time.Second)); r.Fill.Tokens != 95000 {
		t.Errorf("after the next line: fill %+v; want 95000", r.Fill)
	}
}
