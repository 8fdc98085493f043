package dashboard

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// movableClock makes the page's clock one the test moves: Date.now runs
// ahead by what __advance added, and __advance then runs the page's
// interval timers at once, as if that much time had passed.
const movableClock = `
(() => {
  const real = Date.now.bind(Date);
  let ahead = 0;
  Date.now = () => real() + ahead;
  const timers = [];
  const setInterval = window.setInterval.bind(window);
  window.setInterval = (f, ms, ...args) => { timers.push(f); return setInterval(f, ms, ...args); };
  window.__advance = (ms) => { ahead += ms; timers.forEach(f => f()); };
})();`

// relTimes are the relative times a page shows ("3m ago", "next in 2m").
var relTimes = regexp.MustCompile(`(?:\d+[smhd] ago|next in \d+[smhd]|next now)`)

// openWithClock opens path in a new tab whose clock the test moves.
func openWithClock(t *testing.T, browserCtx context.Context, url, path, visible string) context.Context {
	t.Helper()
	ctx := tab(t, browserCtx)
	do_(t, ctx, chromedp.Navigate("about:blank"))
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: movableClock}); err != nil {
		t.Fatal(err)
	}
	do_(t, ctx, chromedp.Navigate(url+path), chromedp.WaitVisible(visible))
	return ctx
}

// TestBrowserAgesMove: every relative time on the fleet page and on an
// agent page keeps moving with the clock, whether or not anything else
// changes: a waiting agent's "2m ago" reads 3m a simulated 75 s later, a
// retry's "next in 3m" counts down and, once past without the retry
// running, says it is overdue and by how long; two days on, every age
// on the page reads in days.
func TestBrowserAgesMove(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	browserCtx := startBrowser(t)
	root := attentionStore(t)
	_, url := serveLoopback(t, root)

	t.Run("fleet", func(t *testing.T) {
		ctx := openWithClock(t, browserCtx, url, "/", "#agent-walt")
		state := func(id string) string {
			return eval[string](t, ctx, `document.querySelector('#agent-`+id+` .state').innerText`)
		}
		for id, want := range map[string]string{"walt": "2m ago", "thrash": "since 3m ago", "apis": "next in 3m"} {
			if got := state(id); !strings.Contains(got, want) {
				t.Fatalf("%s before the clock moves: %q lacks %q", id, got, want)
			}
		}
		eval[any](t, ctx, `window.__advance(75000)`)
		for id, want := range map[string]string{
			"walt":   "idle_prompt Claude is waiting for your input 3m ago",
			"wendy":  "21m ago",
			"thrash": "since 4m ago",
			"stale":  "silent since 41m ago",
			"fill":   "active 1m ago",
			"apis":   "next in 2m",
		} {
			if got := state(id); !strings.Contains(got, want) {
				t.Errorf("%s a simulated 75 s later: %q lacks %q", id, got, want)
			}
		}
		if got := eval[string](t, ctx, `document.querySelector('#agent-apis .who').innerText`); !strings.Contains(got, "synced 3m ago") {
			t.Errorf("apis's host a simulated 75 s later: %q", got)
		}
		// The retry was due 4 minutes after the store was written.
		eval[any](t, ctx, `window.__advance(4 * 60000)`)
		if got := state("apis"); !strings.Contains(got, "retry 2, overdue by 1m") {
			t.Errorf("apis past its retry time: %q", got)
		}
		checkAllInDays(t, ctx)
	})

	t.Run("agent", func(t *testing.T) {
		ctx := openWithClock(t, browserCtx, url, "/agent/apis", "#state")
		if got := eval[string](t, ctx, `document.getElementById('state').innerText`); !strings.Contains(got, "next in 3m") || !strings.Contains(got, "since 3m ago") {
			t.Fatalf("apis's page before the clock moves: %q", got)
		}
		checkAllInDays(t, ctx)
	})
}

// checkAllInDays moves the page's clock two days on and fails on any
// relative time that still reads less than a day, or a retry still "next".
func checkAllInDays(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[any](t, ctx, `window.__advance(2 * 86400000)`)
	text := eval[string](t, ctx, `document.body.innerText`)
	found := relTimes.FindAllString(text, -1)
	if len(found) == 0 {
		t.Fatalf("no relative time on the page: %q", text)
	}
	for _, s := range found {
		if !strings.HasSuffix(s, "d ago") {
			t.Errorf("two simulated days later the page still reads %q", s)
		}
	}
	if !strings.Contains(text, "overdue by 2d") && !strings.Contains(text, "overdue by 1d") {
		t.Errorf("the overdue retry does not say by how long, two days on: %q", text)
	}
}
