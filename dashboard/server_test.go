package dashboard

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// Hostile text in every field an agent controls.
const (
	xssScript = `<script>alert(1)</script>`
	xssImg    = `<img src=x onerror=alert(2)>`
)

func hostileStore(t *testing.T) string {
	return writeStore(t, with(agentFolders, map[string]string{
		"alice/name":           xssScript + "\n",
		"alice/status":         "busy\n",
		"alice/context/now.md": "# plan " + xssImg + "\n\n" + xssScript + "\n\n[click](javascript:alert(3))\n\n<iframe src=//evil></iframe>\n",
		"alice/context/decisions/1790000000000-aaaaaa.md": "- " + xssImg + " decided\n",
		"alice/inbox/1790000000000-abc123.md":             "---\nfrom: " + xssScript + "\nsubject: \"" + xssImg + "\"\n---\n</pre>" + xssScript + "\n",
		"alice/events/s1.jsonl":                           `{"ts":"2026-01-01T00:00:00.000Z","event":"PostToolUse","session":"s1","tool":"<svg onload=alert(4)>","command":"` + strings.ReplaceAll(xssScript, "/", `\/`) + `","hook_us":1}` + "\n",
	}))
}

// TestPagesEscapeAgentText: everything agents wrote reaches the page as
// text; the page's only script is its own.
func TestPagesEscapeAgentText(t *testing.T) {
	s := newServer(t, hostileStore(t))
	for _, path := range []string{"/", "/agent/alice", "/agent/alice/message/1790000000000-abc123.md"} {
		res, body := get(t, s, path)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s = %d: %s", path, res.StatusCode, body)
		}
		for _, bad := range []string{xssScript, "<img src=x", "<svg onload", `href="javascript:`, "<iframe", "onerror=alert(2)>"} {
			if strings.Contains(body, bad) {
				t.Errorf("GET %s: page holds %q unescaped", path, bad)
			}
		}
		if n := strings.Count(body, "<script"); n != 1 {
			t.Errorf("GET %s: %d script elements, want only the page's own", path, n)
		}
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") && path != "/agent/alice/message/1790000000000-abc123.md" {
			t.Errorf("GET %s: the hostile text is not shown escaped", path)
		}
	}
	// now.md is rendered as Markdown, with the raw HTML dropped.
	_, body := get(t, s, "/agent/alice")
	if !strings.Contains(body, "<h1>plan") || !strings.Contains(body, "<!-- raw HTML omitted -->") {
		t.Errorf("now.md not rendered safely:\n%s", body)
	}
}

// TestSecurityHeaders: every response, errors and assets included,
// carries the CSP and the other protective headers.
func TestSecurityHeaders(t *testing.T) {
	s := newServer(t, writeStore(t, agentFolders))
	reqs := []*http.Request{
		httptest.NewRequest("GET", "/", nil),
		httptest.NewRequest("GET", "/agent/alice", nil),
		httptest.NewRequest("GET", "/agent/nobody", nil),
		httptest.NewRequest("GET", "/nowhere", nil),
		httptest.NewRequest("GET", "/static/app.js", nil),
		post(s, "/agent/bob/send", url.Values{"csrf": {"wrong"}}),
	}
	for _, r := range reqs {
		res, _ := do(t, s.Handler(), r)
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "form-action 'self'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s %s: CSP %q lacks %q", r.Method, r.URL, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s %s: CSP allows inline code: %q", r.Method, r.URL, csp)
		}
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options = %q", r.Method, r.URL, got)
		}
	}
}

// TestPathsStayInRoot: names in URLs go through the CLI's validators and
// the confined tree; nothing outside $ST_ROOT is ever served.
func TestPathsStayInRoot(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "root")
	addFiles(t, parent, map[string]string{"secret.md": "TOP-SECRET\n", "secret/inbox/1790000000000-abc123.md": "---\nfrom: x\n---\nTOP-SECRET\n"})
	addFiles(t, root, with(agentFolders, map[string]string{"alice/status": "TOP-SECRET\n"}))
	if err := os.Symlink(filepath.Join(parent, "secret.md"), filepath.Join(root, "alice/inbox/1790000000000-zzzzzz.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(parent, "secret"), filepath.Join(root, "eve")); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, root)
	for _, path := range []string{
		"/agent/..%2F..%2Fsecret",
		"/agent/%2e%2e",
		"/agent/Alice",
		"/agent/eve/message/1790000000000-abc123.md",
		"/agent/alice/message/..%2Fstatus",
		"/agent/alice/message/status",
		"/agent/alice/message/1790000000000-zzzzzz.md",
		"/agent/alice/message/%2e%2e%2f%2e%2e%2fsecret.md",
		"/static/..%2Fpages.go",
		"/static/%2e%2e/pages.go",
		"/static/",
		"/events?agent=..%2Fsecret",
	} {
		res, body := get(t, s, path)
		if res.StatusCode != 404 && res.StatusCode != 400 {
			t.Errorf("GET %s = %d, want 404 or 400", path, res.StatusCode)
		}
		if strings.Contains(body, "TOP-SECRET") || strings.Contains(body, "package dashboard") {
			t.Errorf("GET %s served a file outside the store or the assets", path)
		}
	}
}

// TestSendDelivers: a message sent from the page lands in the inbox with
// exactly the bytes `st message send` writes.
func TestSendDelivers(t *testing.T) {
	root := writeStore(t, agentFolders)
	s := newServer(t, root)
	form := url.Values{"from": {"alice"}, "subject": {"review"}, "priority": {"high"}, "tags": {"a, b"}, "body": {"line 1\r\nline 2"}}
	res, body := do(t, s.Handler(), post(s, "/agent/bob/send", form))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("send = %d: %s", res.StatusCode, body)
	}
	names := inboxNames(t, root, "bob")
	if len(names) != 1 || !message.IsCanonical(names[0]) {
		t.Fatalf("bob's inbox = %v", names)
	}
	if loc := res.Header.Get("Location"); loc != "/agent/bob?sent="+names[0] {
		t.Errorf("Location = %q", loc)
	}
	got, _ := os.ReadFile(filepath.Join(root, "bob/inbox", names[0]))
	want := message.Message{From: "alice", Subject: "review", Priority: "high", Tags: []string{"a", "b"}, Body: []byte("line 1\nline 2")}.Bytes()
	if string(got) != string(want) {
		t.Errorf("file =\n%s\nwant\n%s", got, want)
	}

	// The page's script asks for JSON; the sender defaults to $ST_AGENT.
	r := post(s, "/agent/bob/send", url.Values{"body": {"hi"}})
	r.Header.Set("Accept", "application/json")
	res, body = do(t, s.Handler(), r)
	var reply struct {
		OK   bool
		Name string
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &reply) != nil || !reply.OK {
		t.Fatalf("json send = %d %s", res.StatusCode, body)
	}
	got, err := os.ReadFile(filepath.Join(root, "bob/inbox", reply.Name))
	if err != nil || !strings.HasPrefix(string(got), "---\nfrom: alice\n") {
		t.Errorf("second message = %q, %v", got, err)
	}
}

// TestSendRefused: the CLI's validation, the CSRF token and the origin
// check each refuse a send, and nothing lands.
func TestSendRefused(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		form   url.Values
		header map[string]string
		code   int
		msg    string
	}{
		{"no token", "/agent/bob/send", url.Values{"csrf": {""}, "body": {"x"}}, nil, 403, "CSRF"},
		{"wrong token", "/agent/bob/send", url.Values{"csrf": {"00"}, "body": {"x"}}, nil, 403, "CSRF"},
		{"other origin", "/agent/bob/send", url.Values{"body": {"x"}}, map[string]string{"Origin": "http://127.0.0.1:9999", "Sec-Fetch-Site": ""}, 403, "cross-origin"},
		{"cross-site fetch", "/agent/bob/send", url.Values{"body": {"x"}}, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-origin"},
		{"foreign host", "/agent/bob/send", url.Values{"body": {"x"}}, map[string]string{"Host": "evil.example:8340"}, 421, "Host"},
		{"empty body", "/agent/bob/send", url.Values{"body": {""}}, nil, 400, "message body is empty"},
		{"bad priority", "/agent/bob/send", url.Values{"body": {"x"}, "priority": {"urgent"}}, nil, 400, "priority must be one of"},
		{"bad in-reply-to", "/agent/bob/send", url.Values{"body": {"x"}, "in-reply-to": {"../x"}}, nil, 400, "../x"},
		{"sender without folders", "/agent/bob/send", url.Values{"body": {"x"}, "from": {"carol"}}, nil, 400, "agent folder missing for carol"},
		{"invalid sender", "/agent/bob/send", url.Values{"body": {"x"}, "from": {"Carol"}}, nil, 400, "invalid agent name: Carol"},
		{"invalid recipient", "/agent/Bob/send", url.Values{"body": {"x"}}, nil, 404, "no such agent"},
		{"reserved recipient", "/agent/inbox/send", url.Values{"body": {"x"}}, nil, 404, "no such agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeStore(t, agentFolders)
			s := newServer(t, root)
			r := post(s, tt.path, tt.form)
			for k, v := range tt.header {
				if k == "Host" {
					r.Host = v
					continue
				}
				r.Header.Set(k, v)
			}
			res, body := do(t, s.Handler(), r)
			if res.StatusCode != tt.code || !strings.Contains(body, tt.msg) {
				t.Errorf("= %d %q, want %d with %q", res.StatusCode, body, tt.code, tt.msg)
			}
			for _, id := range []string{"bob", "Bob", "inbox"} {
				if names := inboxNames(t, root, id); len(names) != 0 {
					t.Errorf("delivered anyway: %s/inbox = %v", id, names)
				}
			}
		})
	}
}

// TestSetStatus: the page sets a status like `st status <id> --set`.
func TestSetStatus(t *testing.T) {
	root := writeStore(t, agentFolders)
	s := newServer(t, root)
	res, body := do(t, s.Handler(), post(s, "/agent/bob/status", url.Values{"state": {"dnd"}}))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("set = %d: %s", res.StatusCode, body)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "bob/status")); string(got) != "dnd\n" {
		t.Errorf("bob/status = %q", got)
	}
	for _, bad := range []string{"unknown", "", "busy\nx"} {
		res, body = do(t, s.Handler(), post(s, "/agent/bob/status", url.Values{"state": {bad}}))
		if res.StatusCode != 400 || !strings.Contains(body, "state must be one of: offline, available, busy, away, dnd") {
			t.Errorf("set %q = %d %s", bad, res.StatusCode, body)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(root, "bob/status")); string(got) != "dnd\n" {
		t.Errorf("bob/status after refused sets = %q", got)
	}
	res, _ = do(t, s.Handler(), post(s, "/agent/bob/status", url.Values{"state": {"busy"}, "csrf": {""}}))
	if got, _ := os.ReadFile(filepath.Join(root, "bob/status")); res.StatusCode != 403 || string(got) != "dnd\n" {
		t.Errorf("set without a token = %d, status %q", res.StatusCode, got)
	}
}

// TestSetStatusOfAnAgentLivingElsewhere: the page acts for a person, so
// setting the status of an agent whose home is another host, which alone
// writes it, is refused with the home's name, and nothing is written.
func TestSetStatusOfAnAgentLivingElsewhere(t *testing.T) {
	root := writeStore(t, agentFolders)
	home := time.Now().Add(-time.Minute)
	if err := os.WriteFile(filepath.Join(root, "bob/status"), []byte("dnd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, ".st-hosts"), 0o755)
	record := fmt.Sprintf(`{"host":"hostb","at":%d,"lastOK":0,"agents":{"bob":%d},"claims":{"bob":1}}`, home.UnixMilli(), home.UnixMilli())
	if err := os.WriteFile(filepath.Join(root, ".st-hosts/hostb.json"), []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, root, func(c *Config) { c.Host = "hosta" })
	r := post(s, "/agent/bob/status", url.Values{"state": {"away"}})
	r.Header.Set("Accept", "application/json")
	res, body := do(t, s.Handler(), r)
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, "bob lives on hostb") {
		t.Fatalf("set = %d %s, want 409 naming bob's home", res.StatusCode, body)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "bob/status")); string(got) != "dnd\n" {
		t.Errorf("bob/status = %q after a refused set, want dnd", got)
	}
	s = newServer(t, root, func(c *Config) { c.Host = "hostb" })
	r = post(s, "/agent/bob/status", url.Values{"state": {"away"}})
	r.Header.Set("Accept", "application/json")
	if res, body := do(t, s.Handler(), r); res.StatusCode != http.StatusOK {
		t.Errorf("set on bob's home = %d %s, want 200", res.StatusCode, body)
	}
}

// TestFleetRows: the fleet page shows each agent's status as the CLI
// derives it (stale → unknown), unread count, who waits on a human and
// now.md's first lines.
func TestFleetRows(t *testing.T) {
	now := time.Now()
	root := writeStore(t, with(agentFolders, map[string]string{
		"alice/status":                       "busy\n",
		"alice/context/now.md":               "\n\n  first line  \n\nsecond\nthird\nfourth\n",
		"bob/status":                         "available\n",
		"bob/inbox/1790000000000-abc123.md":  "---\nfrom: alice\n---\nhi\n",
		"bob/inbox/1790000000001-abc123.md":  "---\nfrom: alice\n---\nhi\n",
		"bob/events/s1.jsonl":                `{"ts":"2026-01-01T00:00:00.000Z","event":"Notification","session":"s1","type":"permission_prompt","title":"Bash","hook_us":1}` + "\n",
		"carol/inbox/.1790000000000-tmp.tmp": "",
		"notes/readme":                       "not an agent",
	}))
	old := now.Add(-20 * time.Minute)
	os.Chtimes(filepath.Join(root, "bob/status"), old, old)
	s := newServer(t, root, func(c *Config) { c.Now = fixedClock(&now) })
	rows, _ := s.fleet.Rows()
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	if strings.Join(ids, ",") != "alice,bob,carol" {
		t.Fatalf("agents = %v", ids)
	}
	a, b := rows[0], rows[1]
	if a.Status != "busy" || a.Now != "first line" || a.Unread != 0 {
		t.Errorf("alice = %+v", a)
	}
	if b.Status != "unknown" || b.Unread != 2 || b.Waiting == nil || b.Waiting.Type != "permission_prompt" {
		t.Errorf("bob = %+v", b)
	}
	_, body := get(t, s, "/")
	for _, want := range []string{`<span class="badge st-unknown">unknown</span>`, `<strong>2</strong>`, "permission_prompt", "first line", "1 waiting on a human"} {
		if !strings.Contains(body, want) {
			t.Errorf("fleet page lacks %q", want)
		}
	}
}

// TestStatusGoesStale: with no file change at all, the backstop turns a
// status unknown once it is older than the CLI's limit.
func TestStatusGoesStale(t *testing.T) {
	now := time.Now()
	root := writeStore(t, with(agentFolders, map[string]string{"alice/status": "busy\n"}))
	s := newServer(t, root, func(c *Config) { c.Now = fixedClock(&now) })
	v := s.fleet.Version()
	now = now.Add(16 * time.Minute)
	s.changed(nil, true)
	r, _ := s.fleet.Row("alice")
	changed, _, _ := s.fleet.Since(v)
	if r.Status != "unknown" || len(changed) != 1 || changed[0].ID != "alice" {
		t.Errorf("after 16 minutes: alice %q, changed %v", r.Status, changed)
	}
}

// TestFleetRefresh: rescans add new agents, drop vanished ones and
// report only real changes. The fleet is tested on its own: a server's
// watcher would rescan the changed agents itself, racing the test.
func TestFleetRefresh(t *testing.T) {
	root := writeStore(t, agentFolders)
	tree, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	f := newFleet(tree, agents.IDs(tree), time.Now, nil, "")
	v0 := f.Version()
	if got := f.Refresh([]string{"alice", "bob"}); len(got) != 0 {
		t.Errorf("unchanged agents reported: %v", got)
	}
	addFiles(t, root, map[string]string{"carol/status": "away\n", "bob/inbox/1790000000000-abc123.md": "---\nfrom: a\n---\nx\n"})
	os.RemoveAll(filepath.Join(root, "alice"))
	got := f.Refresh([]string{"alice", "bob", "carol", "nobody"})
	if strings.Join(got, ",") != "alice,bob,carol" {
		t.Errorf("changed = %v", got)
	}
	changed, removed, _ := f.Since(v0)
	if len(changed) != 2 || changed[0].ID != "bob" || changed[1].ID != "carol" || strings.Join(removed, ",") != "alice" {
		t.Errorf("since: changed %v, removed %v", changed, removed)
	}
	if ids := f.IDs(); strings.Join(ids, ",") != "bob,carol" {
		t.Errorf("ids = %v", ids)
	}
}

// An archived message whose inbox copy a sync brought back is shown as
// archived, not as new in the inbox.
func TestMessagePageArchivedTwin(t *testing.T) {
	msg := "---\nfrom: bob\n---\nold news\n"
	s := newServer(t, writeStore(t, with(agentFolders, map[string]string{
		"alice/inbox/1790000000000-twin00.md":   msg,
		"alice/archive/1790000000000-twin00.md": msg,
	})))
	res, body := get(t, s, "/agent/alice/message/1790000000000-twin00.md")
	if res.StatusCode != 200 || !strings.Contains(body, "/ archive / <strong>1790000000000-twin00.md") {
		t.Errorf("GET the twin = %d, not shown as archived:\n%s", res.StatusCode, body)
	}
	if v := s.agentView("alice"); v.Inbox.Total != 0 || v.Archive.Total != 1 {
		t.Errorf("agent page: %d in the inbox, %d in the archive; want the twin archived only", v.Inbox.Total, v.Archive.Total)
	}
}
