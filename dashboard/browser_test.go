package dashboard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// The browser tests drive Debian's chromium headless through the
// DevTools protocol (chromedp) against a real server on a loopback port.
// They skip, with one line, only where chromium cannot start.

// chromiumPath finds the browser: $ST_CHROMIUM, else chromium on PATH.
func chromiumPath() string {
	if p := os.Getenv("ST_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startBrowser starts a headless chromium for the test, or skips it.
func startBrowser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		t.Skip("browser tests skipped: chromium not found (apt-get install chromium)")
	}
	profile, err := os.MkdirTemp("", "st-dashboard-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// Keep the tab's renderer at full priority: chromium otherwise
		// lowers it for pages it considers in the background.
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		// The browser's children can write a moment after it stops.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	if err := chromedp.Do(browser); err != nil {
		t.Skipf("browser tests skipped: chromium cannot start: %v", err)
	}
	return browser
}

// tab opens a new tab of the browser, closed with the test.
func tab(t testing.TB, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(browser, 90*time.Second)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(func() { cancelTab(); cancel() })
	return ctx
}

// serveLoopback runs a dashboard over root on a free loopback port, as
// st dashboard does, and returns it with its URL (no trailing slash).
func serveLoopback(t testing.TB, root string) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	s := newServer(t, root, func(c *Config) {
		c.Hosts = loopbackHosts("127.0.0.1", port)
		c.Poll = DefaultPoll
	})
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: s.Handler()}}
	srv.Start()
	t.Cleanup(func() { s.Close(); srv.Close() })
	return s, srv.URL
}

var (
	buildOnce sync.Once
	stBin     string
	buildErr  error
)

// buildST builds the real st binary once, for "another process".
func buildST(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "st-dashboard-bin-")
		if err != nil {
			buildErr = err
			return
		}
		out, err := exec.Command("go", "build", "-o", dir, "github.com/smalltalk-go/st/cmd/st").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build st: %v\n%s", err, out)
		}
		stBin = filepath.Join(dir, "st")
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return stBin
}

// runST runs the real st in root as agent.
func runST(t testing.TB, root, agent string, args ...string) string {
	t.Helper()
	cmd := exec.Command(buildST(t), args...)
	cmd.Env = append(os.Environ(), "ST_ROOT="+root, "ST_AGENT="+agent)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("st %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

var (
	shotsOnce sync.Once
	shotsDir  string
)

// screenshot saves the tab as name.png in the screenshots folder that
// the README names: $ST_DASHBOARD_ARTIFACTS, else st-dashboard-screenshots
// in the temp folder ($TMPDIR, else /tmp).
func screenshot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	shot(t, ctx, name, chromedp.FullScreenshot(100))
}

// viewShot saves what the tab's viewport shows as name.png, in the
// screenshot folder.
func viewShot(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	shot(t, ctx, name, chromedp.CaptureScreenshot())
}

func shot(t testing.TB, ctx context.Context, name string, capture chromedp.Action[[]byte]) {
	t.Helper()
	shotsOnce.Do(func() {
		shotsDir = os.Getenv("ST_DASHBOARD_ARTIFACTS")
		if shotsDir == "" {
			shotsDir = filepath.Join(os.TempDir(), "st-dashboard-screenshots")
		}
		os.MkdirAll(shotsDir, 0o777)
	})
	png, err := chromedp.Run(ctx, capture)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(shotsDir, name+".png")
	if err := os.WriteFile(p, png, 0o666); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}

func do_(t testing.TB, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

func eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitJS waits until the expression is truthy.
func waitJS(t testing.TB, ctx context.Context, js string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", js, err)
	}
}

// navTiming is what the browser measured of a page load, in ms from the
// start of the navigation.
type navTiming struct {
	TTFB     float64 `json:"ttfb"`
	Response float64 `json:"response"`
	DCL      float64 `json:"dcl"`
	FCP      float64 `json:"fcp"`
	Bytes    float64 `json:"bytes"`
}

const navTimingJS = `(() => {
  const n = performance.getEntriesByType('navigation')[0];
  const p = performance.getEntriesByName('first-contentful-paint')[0];
  return {ttfb: n.responseStart, response: n.responseEnd, dcl: n.domContentLoadedEventEnd,
          fcp: p ? p.startTime : -1, bytes: n.encodedBodySize};
})()`

// logTiming reloads the page (so the renderer is warm, as for an
// operator's open tab) and logs the browser's navigation timing.
func logTiming(t testing.TB, ctx context.Context, what string) navTiming {
	t.Helper()
	do_(t, ctx, chromedp.Reload())
	waitJS(t, ctx, `performance.getEntriesByName('first-contentful-paint').length > 0`)
	n := eval[navTiming](t, ctx, navTimingJS)
	t.Logf("%s: first byte %.0f ms, response end %.0f ms, DOMContentLoaded %.0f ms, first contentful paint %.0f ms (%.0f KB; load %s)",
		what, n.TTFB, n.Response, n.DCL, n.FCP, n.Bytes/1024, loadAvg())
	return n
}

// landedAt is when a file was written: its modification time.
func landedAt(t testing.TB, path string) time.Time {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// loadAvg is the machine's load, logged with the figures it skews.
func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// watchDOM records, in the page, the wall time at which the text first
// appears inside the element with id.
func watchDOM(t testing.TB, ctx context.Context, id, text string) {
	t.Helper()
	js := fmt.Sprintf(`(() => {
  window.__mark = 'no reload';
  window.__seen = 0;
  const el = document.getElementById(%q), want = %q;
  new MutationObserver(() => {
    if (!window.__seen && document.getElementById(%q).textContent.includes(want))
      window.__seen = performance.timeOrigin + performance.now();
  }).observe(el.parentNode, {childList: true, subtree: true, characterData: true});
  return true;
})()`, id, text, id)
	eval[bool](t, ctx, js)
}

// seenAfter waits for watchDOM's text and returns how long after landed
// the DOM changed, checking that the page did not reload.
func seenAfter(t testing.TB, ctx context.Context, landed time.Time) time.Duration {
	t.Helper()
	waitJS(t, ctx, `window.__seen > 0`)
	seen := eval[float64](t, ctx, `window.__seen`)
	if mark := eval[string](t, ctx, `String(window.__mark)`); mark != "no reload" {
		t.Errorf("the page reloaded (marker %q)", mark)
	}
	return time.UnixMicro(int64(seen * 1000)).Sub(landed)
}

// waitLive waits until the page's event stream is open.
func waitLive(t testing.TB, ctx context.Context) {
	t.Helper()
	waitJS(t, ctx, `document.querySelector('#live-state.on') !== null`)
}

// dialogs counts the JavaScript dialogs the tab opens (and closes them).
func dialogs(ctx context.Context) *atomic.Int32 {
	var n atomic.Int32
	evs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range evs {
			if err != nil {
				return
			}
			n.Add(1)
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	return &n
}

func browserStore(t *testing.T) string {
	return writeStore(t, with(agentFolders, map[string]string{
		"alice/name":           "Alice the planner\n",
		"alice/status":         "busy\n",
		"alice/context/now.md": "# Parser rewrite\n\nSplitting the **lexer** out.\n\n- [x] tokens\n- [ ] fuzz it\n",
		"alice/context/decisions/1790000000000-aaaaaa.md": "- 2026-09-01T10:00:00Z use a hand-written lexer. why: the grammar is tiny.\n",
		"alice/inbox/1790000000000-abc123.md":             "---\nfrom: bob\nsubject: review please\n---\nThe parser branch is ready.\n",
		"alice/events/s1.jsonl": logLine(time.Now().Add(-time.Minute), "PostToolUse", `,"tool":"Bash","command":"go test ./..."`) +
			logLine(time.Now().Add(-50*time.Second), "PostToolUseFailure", `,"tool":"Bash","error":"exit status 1"`) +
			logLine(time.Now().Add(-40*time.Second), "PreCompact", `,"type":"auto"`),
		"bob/status":          "available\n",
		"bob/events/s2.jsonl": recordedLine(t, "Notification", time.Now().Add(-30*time.Second)),
	}))
}

// recordedLine is the event line the hook writes for the payload Claude
// Code really sent (e2e/claudecode/testdata/payloads), at the time at.
func recordedLine(t testing.TB, event string, at time.Time) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "e2e", "claudecode", "testdata", "payloads", event+".json"))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := hooks.ParsePayload(data)
	if !ok {
		t.Fatalf("bad payload %s", data)
	}
	line, err := events.Marshal(hooks.NewEvent(event, &p, at))
	if err != nil {
		t.Fatal(err)
	}
	return string(line)
}

// TestBrowser drives the dashboard in headless chromium.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	browser := startBrowser(t)
	root := browserStore(t)
	s, url := serveLoopback(t, root)

	t.Run("fleet", func(t *testing.T) {
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-bob")))
		text := eval[string](t, ctx, `document.getElementById('rows').innerText`)
		for _, want := range []string{"alice", "Alice the planner", "busy", "bob", "available", "permission_prompt", "Claude needs your permission", "Parser rewrite"} {
			if !strings.Contains(text, want) {
				t.Errorf("fleet table lacks %q:\n%s", want, text)
			}
		}
		logTiming(t, ctx, "fleet page (3 agents)")
		waitLive(t, ctx)
		screenshot(t, ctx, "fleet")
	})

	t.Run("arrival from another process", func(t *testing.T) {
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(url+"/agent/alice"), chromedp.WaitVisible(chromedp.ID("live")))
		waitLive(t, ctx)
		subject := fmt.Sprintf("arrival %d", time.Now().UnixNano())
		watchDOM(t, ctx, "inbox", subject)
		name := runST(t, root, "bob", "message", "send", "alice", "--subject", subject, "-m", "sent by the real st")
		lag := seenAfter(t, ctx, landedAt(t, filepath.Join(root, "alice/inbox", name)))
		t.Logf("message file written by st message send to DOM change: %v (load %s)", lag.Round(time.Millisecond), loadAvg())
		if html := eval[string](t, ctx, `document.getElementById('inbox').innerHTML`); !strings.Contains(html, name) {
			t.Errorf("inbox section lacks %s", name)
		}
		screenshot(t, ctx, "agent")
	})

	t.Run("fleet row updates", func(t *testing.T) {
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-bob")))
		waitLive(t, ctx)
		watchDOM(t, ctx, "agent-bob", "dnd")
		runST(t, root, "alice", "status", "bob", "--set", "dnd")
		lag := seenAfter(t, ctx, landedAt(t, filepath.Join(root, "bob/status")))
		t.Logf("status file written by st status --set to fleet row change: %v (load %s)", lag.Round(time.Millisecond), loadAvg())
	})

	t.Run("subagents", func(t *testing.T) {
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(url+"/agent/alice"), chromedp.WaitVisible(chromedp.ID("live")))
		waitLive(t, ctx)
		watchDOM(t, ctx, "live", "SUB-REPORT: nothing to see")
		// The lines the hooks write for what Claude Code really sent at a
		// subagent's start and end.
		log := filepath.Join(root, "alice/events/s1.jsonl")
		lines := recordedLine(t, "SubagentStart", time.Now().Add(-2*time.Second)) + recordedLine(t, "SubagentStop", time.Now())
		f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(lines); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		seenAfter(t, ctx, landedAt(t, log))
		text := eval[string](t, ctx, `document.getElementById('subagents').innerText`)
		for _, want := range []string{"1 done", "general-purpose", "done", "SUB-REPORT: nothing to see"} {
			if !strings.Contains(text, want) {
				t.Errorf("the subagents section lacks %q:\n%s", want, text)
			}
		}
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-alice")))
		if row := eval[string](t, ctx, `document.getElementById('agent-alice').innerText`); !strings.Contains(row, "subagents: 1 done") {
			t.Errorf("alice's fleet row does not count her subagent:\n%s", row)
		}
	})

	t.Run("acknowledgements", func(t *testing.T) {
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-bob")))
		waitLive(t, ctx)
		watchDOM(t, ctx, "agent-bob", "1 to ack")
		name := runST(t, root, "alice", "message", "send", "bob", "--ack-required", "-m", "confirm, please")
		seenAfter(t, ctx, landedAt(t, filepath.Join(root, "bob/inbox", name)))
		runST(t, root, "bob", "message", "ack", name)
		waitJS(t, ctx, `!document.getElementById('agent-bob').textContent.includes('to ack')`)
	})

	t.Run("send from the page", func(t *testing.T) {
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(url+"/agent/bob"), chromedp.WaitVisible(chromedp.CSS(`form[action$="/send"] textarea`)))
		waitLive(t, ctx)
		body := fmt.Sprintf("sent from the page %d", time.Now().UnixNano())
		watchDOM(t, ctx, "inbox", body)
		do_(t, ctx,
			chromedp.SetValue(chromedp.CSS(`form[action$="/send"] input[name=subject]`), "from the browser"),
			chromedp.SetValue(chromedp.CSS(`form[action$="/send"] textarea`), body),
			chromedp.Click(chromedp.CSS(`form[action$="/send"] button`)),
		)
		waitJS(t, ctx, `document.querySelector('form[action$="/send"] output.ok') !== null`)
		seenAfter(t, ctx, time.Now())
		found := ""
		for _, n := range inboxNames(t, root, "bob") {
			data, _ := os.ReadFile(filepath.Join(root, "bob/inbox", n))
			if strings.Contains(string(data), body) {
				found = string(data)
			}
		}
		if want := string(message.Message{From: "alice", Subject: "from the browser", Body: []byte(body)}.Bytes()); found != want {
			t.Errorf("bob's inbox holds %q, want %q", found, want)
		}
	})

	t.Run("set status from the page", func(t *testing.T) {
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(url+"/agent/alice"), chromedp.WaitVisible(chromedp.CSS(`form[action$="/status"] select`)))
		do_(t, ctx,
			chromedp.SetValue(chromedp.CSS(`form[action$="/status"] select`), "away"),
			chromedp.Click(chromedp.CSS(`form[action$="/status"] button`)),
		)
		waitJS(t, ctx, `document.querySelector('form[action$="/status"] output.ok') !== null`)
		if data, _ := os.ReadFile(filepath.Join(root, "alice/status")); string(data) != "away\n" {
			t.Errorf("alice/status = %q", data)
		}
	})

	t.Run("xss inert", func(t *testing.T) {
		const pwn = `window.__pwned=1`
		addFiles(t, root, map[string]string{
			"mallory/inbox/":   "",
			"mallory/archive/": "",
			"mallory/name":     `<img src=x onerror="` + pwn + `">` + "\n",
			"mallory/status":   "busy\n",
			"mallory/context/now.md": "# <script>" + pwn + "</script> plan\n\n<img src=x onerror=\"" + pwn + "\">\n\n" +
				"[click me](javascript:" + pwn + ")\n\n<iframe src=\"javascript:alert(1)\"></iframe>\n",
			"mallory/inbox/1790000000000-xss001.md": "---\nfrom: \"<script>alert(1)</script>\"\nsubject: \"<img src=x onerror=alert(2)>\"\n---\n</pre><script>alert(3)</script><svg onload=alert(4)>\n",
			"mallory/events/s.jsonl":                logLine(time.Now(), "PostToolUse", `,"tool":"<img src=x onerror=alert(5)>"`),
		})
		ctx := tab(t, browser)
		fired := dialogs(ctx)
		check := func(where string) {
			t.Helper()
			if n := eval[int](t, ctx, `document.scripts.length`); n != 1 {
				t.Errorf("%s: %d script elements, want the page's own only", where, n)
			}
			if n := eval[int](t, ctx, `document.querySelectorAll('[onerror],[onload],[onclick],iframe,object,embed,img').length`); n != 0 {
				t.Errorf("%s: %d injected elements or handlers", where, n)
			}
			if n := eval[int](t, ctx, `[...document.querySelectorAll('a[href]')].filter(a => a.protocol === 'javascript:').length`); n != 0 {
				t.Errorf("%s: %d javascript: links", where, n)
			}
			if p := eval[bool](t, ctx, `window.__pwned === 1`); p {
				t.Errorf("%s: a payload ran", where)
			}
		}
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-mallory")))
		waitLive(t, ctx)
		check("fleet")
		do_(t, ctx, chromedp.Navigate(url+"/agent/mallory"), chromedp.WaitVisible(chromedp.ID("inbox")))
		waitLive(t, ctx)
		check("agent page")
		if text := eval[string](t, ctx, `document.getElementById('inbox').innerText`); !strings.Contains(text, "<img src=x onerror=alert(2)>") {
			t.Errorf("the hostile subject is not shown as text:\n%s", text)
		}
		// The same payloads arriving live go through the stream's path.
		watchDOM(t, ctx, "inbox", "live payload")
		runST(t, root, "alice", "message", "send", "mallory", "--subject", `live payload <img src=x onerror="`+pwn+`">`, "-m", `<script>`+pwn+`</script>`)
		seenAfter(t, ctx, time.Now())
		check("after a live update")
		do_(t, ctx, chromedp.Navigate(url+"/agent/mallory/message/1790000000000-xss001.md"), chromedp.WaitVisible(chromedp.CSS("pre.body")))
		check("message page")
		time.Sleep(300 * time.Millisecond) // give a stray handler its chance
		if n := fired.Load(); n != 0 {
			t.Errorf("%d dialogs opened", n)
		}
		do_(t, ctx, chromedp.Navigate(url+"/agent/mallory"), chromedp.WaitVisible(chromedp.ID("inbox")))
		screenshot(t, ctx, "xss-inert")
	})

	t.Run("cross-origin post refused", func(t *testing.T) {
		before := len(inboxNames(t, root, "bob"))
		// A page on another loopback port that knows even the token.
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><title>evil</title><form id="f" method="post" action="%s/agent/bob/send">
<input name="csrf" value="%s"><input name="from" value="alice"><input name="body" value="forged by a form">
</form>`, url, s.csrf)
			if r.URL.Path == "/form" {
				fmt.Fprint(w, `<script>document.getElementById('f').submit()</script>`)
			}
		}))
		defer evil.Close()
		ctx := tab(t, browser)
		do_(t, ctx, chromedp.Navigate(evil.URL+"/fetch"))
		res := eval[string](t, ctx, fmt.Sprintf(`fetch(%q, {method: 'POST', mode: 'no-cors', credentials: 'include',
  body: new URLSearchParams({csrf: %q, from: 'alice', body: 'forged by fetch'})}).then(() => 'sent', e => 'blocked: ' + e)`,
			url+"/agent/bob/send", s.csrf))
		t.Logf("cross-origin fetch: %s", res)
		do_(t, ctx, chromedp.Navigate(evil.URL+"/form"))
		waitJS(t, ctx, fmt.Sprintf(`location.href.startsWith(%q) && document.body && document.body.innerText.length > 0`, url))
		text := eval[string](t, ctx, `document.body.innerText`)
		if !strings.Contains(text, "cross-origin request refused") {
			t.Errorf("the forged form got:\n%s", text)
		}
		screenshot(t, ctx, "cross-origin-refused")
		time.Sleep(200 * time.Millisecond)
		if after := len(inboxNames(t, root, "bob")); after != before {
			t.Errorf("bob's inbox went from %d to %d files: a forged post landed", before, after)
		}
	})

	t.Run("reading without javascript", func(t *testing.T) {
		ctx := tab(t, browser)
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		do_(t, ctx, chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("agent-alice")))
		do_(t, ctx, chromedp.Click(chromedp.CSS(`#agent-alice a`)), chromedp.WaitVisible(chromedp.CSS(".md h1")))
		if h := eval[string](t, ctx, `document.querySelector('.md h1').textContent`); h != "Parser rewrite" {
			t.Errorf("now.md heading = %q", h)
		}
		if eval[bool](t, ctx, `!document.getElementById('live-state').hidden`) {
			t.Error("the script ran with JavaScript disabled")
		}
		// The form posts natively and lands back on the page (303).
		body := fmt.Sprintf("no-js %d", time.Now().UnixNano())
		do_(t, ctx,
			chromedp.SetValue(chromedp.CSS(`form[action$="/send"] textarea`), body),
			chromedp.Click(chromedp.CSS(`form[action$="/send"] button`)),
			chromedp.WaitVisible(chromedp.CSS(".notice")),
		)
		if n := eval[string](t, ctx, `document.querySelector('.notice').textContent`); !strings.HasPrefix(n, "sent ") {
			t.Errorf("notice = %q", n)
		}
		name := strings.TrimPrefix(eval[string](t, ctx, `document.querySelector('.notice').textContent`), "sent ")
		if data, err := os.ReadFile(filepath.Join(root, "alice/inbox", name)); err != nil || !strings.Contains(string(data), body) {
			t.Errorf("%s: %q, %v", name, data, err)
		}
	})
}

// The browser's view at the target scale: 500 agents × 100 messages and
// a 100 MB event log. Each iteration reloads the page (navigation timing:
// response end, first contentful paint) and then changes one agent's
// files, timing the file's landing to the change in the DOM. Run:
//
//	go test ./dashboard -run '^$' -bench Browser -benchtime 10x
func BenchmarkBrowserFleet(b *testing.B) {
	benchBrowser(b, "/", func(i int) (string, string) {
		id := scaleID((i * 37) % scaleAgents)
		return "agent-" + id, id
	})
}

func BenchmarkBrowserAgentBigLog(b *testing.B) {
	benchBrowser(b, "/agent/"+scaleID(0), func(int) (string, string) { return "state", scaleID(0) })
}

// benchBrowser measures page at scale; target names, per iteration, the
// element to watch and the agent whose now.md to rewrite.
func benchBrowser(b *testing.B, page string, target func(i int) (elem, agent string)) {
	browser := startBrowser(b)
	root := bigFleet(b)
	_, url := serveLoopback(b, root)
	tr, err := fsutil.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	ctx := tab(b, browser)
	do_(b, ctx, chromedp.Navigate(url+page))
	var resp, fcp, update float64
	i := 0
	for b.Loop() {
		do_(b, ctx, chromedp.Reload())
		waitJS(b, ctx, `performance.getEntriesByName('first-contentful-paint').length > 0`)
		n := eval[navTiming](b, ctx, navTimingJS)
		resp, fcp = resp+n.Response, fcp+n.FCP
		waitLive(b, ctx)
		elem, agent := target(i)
		mark := fmt.Sprintf("benchmark update %d-%d", i, time.Now().UnixNano())
		watchDOM(b, ctx, elem, mark)
		if _, err := agentctx.WriteNow(tr, agent, []byte(mark+"\n")); err != nil {
			b.Fatal(err)
		}
		update += float64(seenAfter(b, ctx, landedAt(b, filepath.Join(root, agent, "context/now.md")))) / 1e6
		i++
	}
	b.ReportMetric(resp/float64(b.N), "response-ms")
	b.ReportMetric(fcp/float64(b.N), "fcp-ms")
	b.ReportMetric(update/float64(b.N), "update-ms")
	b.Logf("load %s", loadAvg())
}
