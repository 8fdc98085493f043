package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/smalltalk-go/st/events"
	hostfleet "github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// transcriptLine is the Stop line the hook writes for the recorded Stop
// payload, its transcript_path pointing at the tail of a transcript a
// real Claude Code wrote against the e2e mock API (TestToolHooks, at the
// end of its first turn: the last reply's usage says 140,000 tokens, of
// model claude-opus-5-5).
func transcriptLine(t testing.TB, at time.Time) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "e2e", "claudecode", "testdata", "payloads", "Stop.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := hooks.ParsePayload(data)
	if !ok {
		t.Fatalf("bad payload %s", data)
	}
	p.TranscriptPath, _ = filepath.Abs(filepath.Join("testdata", "transcript-tail.jsonl"))
	ev := hooks.NewEvent("Stop", &p, at)
	hooks.NoteContext(ev, &p)
	if ev.CtxTokens == 0 {
		t.Fatal("the recorded transcript gave no context fill")
	}
	line, err := events.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(line)
}

// codexLine is the line codex-stop writes for the Stop payload Codex
// 0.169 really sent, its transcript_path pointing at a rollout a real
// Codex wrote against the e2e mock (e2e/codex TestStopRecordsContextFill:
// the last response's total is 61,654 tokens, and Codex gives
// gpt-5.1-codex a window of 258,400).
func codexLine(t testing.TB, at time.Time) string {
	t.Helper()
	recorded := filepath.Join("..", "e2e", "codex", "testdata")
	data, err := os.ReadFile(filepath.Join(recorded, "payloads", "Stop.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := hooks.ParsePayload(data)
	if !ok {
		t.Fatalf("bad payload %s", data)
	}
	p.TranscriptPath, _ = filepath.Abs(filepath.Join(recorded, "rollout.jsonl"))
	ev := hooks.NewEvent(hooks.EventName(hooks.CodexStop, &p), &p, at)
	hooks.NoteContext(ev, &p)
	if ev.CtxTokens == 0 || ev.CtxWindow == 0 {
		t.Fatal("the recorded rollout gave no context fill or window")
	}
	line, err := events.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(line)
}

// attentionStore is a fleet in every state the page orders by.
func attentionStore(t *testing.T) string {
	now := time.Now()
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	line := func(at time.Time, event, extra string) string { return logLine(at, event, extra) }
	fail := func(at time.Time) string {
		return line(at, "PostToolUseFailure", `,"tool":"Bash","command":"make check","input":"h1","error":"exit status 2"`)
	}
	root := writeStore(t, map[string]string{
		"wendy/status":         "busy\n",
		"wendy/events/s.jsonl": recordedLine(t, "Notification", ago(20*time.Minute)),
		"walt/status":          "available\n",
		"walt/events/s.jsonl":  line(ago(2*time.Minute), "Notification", `,"type":"idle_prompt","message":"Claude is waiting for your input"`),
		"apis/status":          "away\n",
		"apis/events/s.jsonl": line(ago(3*time.Minute), "StopFailure", `,"error":"overloaded","attempt":1`) +
			line(ago(time.Minute), "StopFailure", fmt.Sprintf(`,"error":"overloaded","attempt":2,"retry_at":%q`, events.Stamp(now.Add(4*time.Minute)))),
		"thrash/status":         "busy\n",
		"thrash/events/s.jsonl": fail(ago(3*time.Minute)) + fail(ago(2*time.Minute)) + fail(ago(time.Minute)),
		"stale/status":          "busy\n",
		"stale/events/s.jsonl":  line(ago(40*time.Minute), "PostToolUse", `,"tool":"Read","path":"/src/app/main.go"`),
		"fill/status":           "busy\n",
		"fill/context/now.md":   "## Rewriting the **lexer**\n\n| step | state |\n|---|---|\n",
		"fill/events/s.jsonl":   line(ago(30*time.Second), "PostToolUse", `,"tool":"Edit","path":"/work/proj/internal/lexer/lexer.go"`) + transcriptLine(t, ago(10*time.Second)),
		"avail/status":          "available\n",
		"off/status":            "offline\n",
	})
	// apis lives on build-2, which synced 2 minutes ago; off on laptop,
	// which has not synced for an hour.
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for _, r := range []hostfleet.Record{
		{Host: "build-2", At: ago(2 * time.Minute).UnixMilli(), Agents: map[string]int64{"apis": 1}},
		{Host: "laptop", At: ago(time.Hour).UnixMilli(), Agents: map[string]int64{"off": 1}},
	} {
		if _, err := hostfleet.Write(tr, r); err != nil {
			t.Fatal(err)
		}
	}
	// The stale agent's files are as old as its last event.
	old := ago(40 * time.Minute)
	for _, p := range []string{"stale/status", "stale/events/s.jsonl", "stale/events", "stale"} {
		os.Chtimes(filepath.Join(root, p), old, old)
	}
	return root
}

// rowOrder is the fleet rows' ids and groups, top to bottom.
func rowOrder(t testing.TB, ctx context.Context) string {
	return eval[string](t, ctx, `[...document.querySelectorAll('#rows .row[data-id]')].map(r => r.dataset.id + ':' + r.dataset.group).join(' ')`)
}

// setViewport sizes the tab as a device of w×h CSS pixels.
func setViewport(t testing.TB, ctx context.Context, w, h int64, mobile bool) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: w, Height: h, DeviceScaleFactor: 1, Mobile: mobile}); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserAttention: the fleet page puts trouble first and says why,
// its counts filter through the URL, the title carries the count, the
// context bar comes from a recorded transcript, notifications are opt-in,
// and a phone gets cards. Screenshots at 1400×900 and 390×844.
func TestBrowserAttention(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	browserCtx := startBrowser(t)
	root := attentionStore(t)
	_, url := serveLoopback(t, root)
	const order = "wendy:waiting walt:waiting apis:api-error thrash:thrashing stale:stale fill:busy avail:available off:offline"

	t.Run("order and reasons", func(t *testing.T) {
		ctx := tab(t, browserCtx)
		setViewport(t, ctx, 1400, 900, false)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-wendy")))
		if got := rowOrder(t, ctx); got != order {
			t.Errorf("order:\n got %s\nwant %s", got, order)
		}
		state := func(id string) string {
			return eval[string](t, ctx, fmt.Sprintf(`document.querySelector('#agent-%s .state').innerText`, id))
		}
		for id, want := range map[string][]string{
			"wendy":  {"waiting on a human", "permission_prompt", "Claude needs your permission", "busy"},
			"walt":   {"idle_prompt", "Claude is waiting for your input"},
			"apis":   {"stopped by an API error", "overloaded", "retry 2", "next in 3m", "away"},
			"thrash": {"thrashing", "Bash", "failed 3× in a row", "make check"},
			"stale":  {"busy but silent", "silent since 40m ago"},
		} {
			got := state(id)
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("%s's state lacks %q: %q", id, w, got)
				}
			}
		}
		if title := eval[string](t, ctx, `document.title`); title != "(5) st dashboard" {
			t.Errorf("title = %q", title)
		}
		// Agents from peers: their host and how old the copy is.
		if who := eval[string](t, ctx, `document.querySelector('#agent-apis .who').innerText`); !strings.Contains(who, "on build-2 · synced 2m ago") {
			t.Errorf("apis = %q", who)
		}
		if who := eval[string](t, ctx, `document.querySelector('#agent-off .who').innerText`); !strings.Contains(who, "on laptop · synced 1h ago") || !strings.Contains(who, "stale") {
			t.Errorf("off = %q", who)
		}
		if who := eval[string](t, ctx, `document.querySelector('#agent-fill .who').innerText`); who != "fill" {
			t.Errorf("fill (no host) = %q", who)
		}
		// The context bar, from the recorded transcript: 140,000 of the
		// default 200,000 tokens.
		fill := eval[string](t, ctx, `document.querySelector('#agent-fill .ctx').innerText`)
		if !strings.Contains(fill, "70%") || !strings.Contains(fill, "claude-opus-5-5") {
			t.Errorf("context cell = %q", fill)
		}
		if w := eval[string](t, ctx, `document.querySelector('#agent-fill .ctx rect.fg').getAttribute('width')`); w != "70" {
			t.Errorf("bar width = %q", w)
		}
		for _, id := range []string{"wendy", "apis", "stale", "avail", "off"} {
			if n := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll('#agent-%s .ctx svg').length`, id)); n != 0 {
				t.Errorf("%s shows a context bar with no fill recorded", id)
			}
		}
		if got := eval[string](t, ctx, `document.querySelector('#agent-fill .now').innerText`); got != "Rewriting the lexer" {
			t.Errorf("now.md line = %q", got)
		}
		if got := eval[string](t, ctx, `document.querySelector('#agent-fill .act').innerText`); !strings.Contains(got, "Edit …/lexer/lexer.go") {
			t.Errorf("activity = %q", got)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#agent-fill .act svg.spark rect').length`); n == 0 {
			t.Error("no sparkline for an agent active in the last hour")
		}
		viewShot(t, ctx, "fleet-1400x900")
	})

	t.Run("filter in the URL", func(t *testing.T) {
		ctx := tab(t, browserCtx)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-wendy")))
		do_(t, ctx, chromedp.Click(chromedp.CSS(`#summary a.g-waiting`)), chromedp.WaitVisible(chromedp.CSS(`#summary a.current`)))
		if loc := eval[string](t, ctx, `location.pathname + location.search`); loc != "/?show=waiting" {
			t.Errorf("location = %q", loc)
		}
		if got := rowOrder(t, ctx); got != "wendy:waiting walt:waiting" {
			t.Errorf("filtered rows = %s", got)
		}
		// The link can be shared: the same URL in a fresh tab, by name.
		ctx2 := tab(t, browserCtx)
		do_(t, ctx2, chromedp.Navigate(url+"/?show=busy&order=name"), chromedp.WaitVisible(chromedp.ID("rows")))
		if got := rowOrder(t, ctx2); got != "fill:busy" {
			t.Errorf("show=busy rows = %s", got)
		}
		// A live change that enters the filter arrives; one that leaves it goes.
		waitLive(t, ctx)
		addFiles(t, root, map[string]string{"avail/events/s.jsonl": logLine(time.Now(), "Notification", `,"type":"idle_prompt","message":"done, what next?"`)})
		waitJS(t, ctx, `document.getElementById('agent-avail') !== null`)
		if got := rowOrder(t, ctx); got != "wendy:waiting walt:waiting avail:waiting" {
			t.Errorf("after avail waits: %s", got)
		}
		waitJS(t, ctx, `document.title === '(6) st dashboard'`)
		appendLog(t, root, "avail/events/s.jsonl", logLine(time.Now(), "UserPromptSubmit", ""))
		waitJS(t, ctx, `document.getElementById('agent-avail') === null`)
		waitJS(t, ctx, `document.title === '(5) st dashboard'`)
	})

	t.Run("live reorder", func(t *testing.T) {
		ctx := tab(t, browserCtx)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-off")))
		waitLive(t, ctx)
		eval[bool](t, ctx, `window.__mark = 'no reload', true`)
		// off's session stops on an API error: it moves up to the others.
		appendLog(t, root, "off/events/s.jsonl", logLine(time.Now(), "StopFailure", `,"error":"rate_limit"`))
		waitJS(t, ctx, `document.querySelector('#agent-off') && document.querySelector('#agent-off').dataset.group === 'api-error'`)
		want := "wendy:waiting walt:waiting apis:api-error off:api-error thrash:thrashing"
		if got := rowOrder(t, ctx); !strings.HasPrefix(got, want) {
			t.Errorf("after off's API error:\n got %s\nwant %s…", got, want)
		}
		if mark := eval[string](t, ctx, `String(window.__mark)`); mark != "no reload" {
			t.Error("the page reloaded")
		}
		appendLog(t, root, "off/events/s.jsonl", logLine(time.Now(), "SessionEnd", ""))
		waitJS(t, ctx, `document.querySelector('#agent-off').dataset.group === 'offline'`)
	})

	t.Run("notifications", func(t *testing.T) {
		ctx := tab(t, browserCtx)
		do_(t, ctx, chromedp.Navigate("about:blank"))
		// Record what the page asks of the Notification API.
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
window.__notes = [];
(() => {
  const N = window.Notification;
  window.__asked = 0;
  const R = function (title, opts) { window.__notes.push(title + ' | ' + ((opts && opts.body) || '')); };
  Object.defineProperty(R, 'permission', { get: () => N.permission });
  R.requestPermission = () => { window.__asked++; return N.requestPermission(); };
  window.Notification = R;
})();`}); err != nil {
			t.Fatal(err)
		}
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("notify")))
		waitLive(t, ctx)
		if n := eval[int](t, ctx, `window.__asked`); n != 0 {
			t.Errorf("permission asked %d times on load", n)
		}
		if _, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted, Origin: url}); err != nil {
			t.Fatal(err)
		}
		do_(t, ctx, chromedp.Click(chromedp.ID("notify")))
		waitJS(t, ctx, `document.getElementById('notify').textContent === 'Notifications on'`)
		if n := eval[int](t, ctx, `window.__asked`); n != 1 {
			t.Errorf("permission asked %d times after one click", n)
		}
		appendLog(t, root, "avail/events/s.jsonl", recordedLine(t, "Notification", time.Now()))
		waitJS(t, ctx, `window.__notes.length > 0`)
		notes := eval[[]string](t, ctx, `window.__notes`)
		if len(notes) != 1 || !strings.HasPrefix(notes[0], "avail waits on a human | ") || !strings.Contains(notes[0], "Claude needs your permission") {
			t.Errorf("notifications = %q", notes)
		}
		// Another change to a row already waiting says nothing new.
		appendLog(t, root, "avail/events/s.jsonl", logLine(time.Now(), "Notification", `,"type":"auth_success"`))
		time.Sleep(300 * time.Millisecond)
		if n := eval[int](t, ctx, `window.__notes.length`); n != 1 {
			t.Errorf("%d notifications, want 1", n)
		}
		appendLog(t, root, "avail/events/s.jsonl", logLine(time.Now(), "UserPromptSubmit", ""))
	})

	t.Run("phone", func(t *testing.T) {
		ctx := tab(t, browserCtx)
		setViewport(t, ctx, 390, 844, true)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-wendy")))
		// Every card's state, reason and now.md line are on screen.
		var off []string
		raw := eval[string](t, ctx, `JSON.stringify([...document.querySelectorAll('#rows .row[data-id]')].flatMap(r =>
  [...r.querySelectorAll('.state .badge, .state .reason, .now')].map(e => {
    const b = e.getBoundingClientRect();
    return {id: r.dataset.id, cls: e.className, left: b.left, right: b.right, w: b.width};
  })))`)
		var boxes []struct {
			ID, Cls     string
			Left, Right float64
			W           float64
		}
		if err := json.Unmarshal([]byte(raw), &boxes); err != nil {
			t.Fatal(err)
		}
		for _, b := range boxes {
			if b.Left < 0 || b.Right > 390 || b.W == 0 {
				off = append(off, fmt.Sprintf("%s %s [%.0f, %.0f]", b.ID, b.Cls, b.Left, b.Right))
			}
		}
		if len(boxes) < 16 || len(off) > 0 {
			t.Errorf("%d boxes; off screen at 390 px: %v", len(boxes), off)
		}
		if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("the page scrolls sideways: %v px wide", w)
		}
		if d := eval[string](t, ctx, `getComputedStyle(document.querySelector('.fleet .row.head')).display`); d != "none" {
			t.Errorf("the table header shows on a phone (display %s)", d)
		}
		viewShot(t, ctx, "fleet-390x844")
		do_(t, ctx, chromedp.Navigate(url+"/agent/fill"), chromedp.WaitVisible(chromedp.ID("state")))
		if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("the agent page scrolls sideways: %v px wide", w)
		}
		viewShot(t, ctx, "agent-390x844")
	})

	// A Codex agent's bar is measured against the window Codex gave the
	// model in its rollout (258,400), not the configured one (200,000).
	t.Run("codex context bar", func(t *testing.T) {
		_, url := serveLoopback(t, writeStore(t, map[string]string{
			"cdx/status":         "busy\n",
			"cdx/events/s.jsonl": codexLine(t, time.Now().Add(-5*time.Second)),
		}))
		ctx := tab(t, browserCtx)
		setViewport(t, ctx, 1400, 900, false)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-cdx")))
		fill := eval[string](t, ctx, `document.querySelector('#agent-cdx .ctx').innerText`)
		if !strings.Contains(fill, "23%") || !strings.Contains(fill, "gpt-5.1-codex") {
			t.Errorf("context cell = %q, want 23%% (61,654 of 258,400) and gpt-5.1-codex", fill)
		}
		if w := eval[string](t, ctx, `document.querySelector('#agent-cdx .ctx rect.fg').getAttribute('width')`); w != "23" {
			t.Errorf("bar width = %q", w)
		}
		if title := eval[string](t, ctx, `document.querySelector('#agent-cdx .ctx .fill').title`); !strings.Contains(title, "61654 tokens of 258400 (the window the client gives the model)") {
			t.Errorf("bar title = %q", title)
		}
		do_(t, ctx, chromedp.Navigate(url+"/agent/cdx"), chromedp.WaitVisible(chromedp.ID("state")))
		if text := eval[string](t, ctx, `document.getElementById('state').innerText`); !strings.Contains(text, "23%") {
			t.Errorf("agent page lacks the context fill:\n%s", text)
		}
	})

	t.Run("agent page: state first", func(t *testing.T) {
		ctx := tab(t, browserCtx)
		setViewport(t, ctx, 1400, 900, false)
		do_(t, ctx, chromedp.Navigate(url+"/agent/wendy"), chromedp.WaitVisible(chromedp.ID("state")))
		if !eval[bool](t, ctx, `document.getElementById('state').compareDocumentPosition(document.querySelector('form.act')) === Node.DOCUMENT_POSITION_FOLLOWING`) {
			t.Error("the forms come before the agent's state")
		}
		text := eval[string](t, ctx, `document.getElementById('state').innerText`)
		for _, want := range []string{"waiting on a human", "Claude needs your permission"} {
			if !strings.Contains(text, want) {
				t.Errorf("agent state lacks %q:\n%s", want, text)
			}
		}
		// Live: the question is answered from another process.
		waitLive(t, ctx)
		appendLog(t, root, "wendy/events/s.jsonl", logLine(time.Now(), "PostToolUse", `,"tool":"Bash","command":"rm -rf build"`))
		waitJS(t, ctx, `document.querySelector('#state .head.g-busy') !== null`)
		do_(t, ctx, chromedp.Navigate(url+"/agent/fill"), chromedp.WaitVisible(chromedp.ID("state")))
		if text := eval[string](t, ctx, `document.getElementById('state').innerText`); !strings.Contains(text, "70%") {
			t.Errorf("agent page lacks the context fill:\n%s", text)
		}
		viewShot(t, ctx, "agent-1400x900")
	})
}

// appendLog appends to a file of the store, as a hook does.
func appendLog(t testing.TB, root, rel, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o777); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(root, rel), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
