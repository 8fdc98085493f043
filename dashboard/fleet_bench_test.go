package dashboard

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// The scale of a large fleet: 1,000 agents × 100 messages and 1,000 event lines
// each, 1,000,000 lines in all. Run (scripts/dashboard-bench runs these
// and the browser soak):
//
//	go test ./dashboard -run '^$' -bench 'FleetScale|Landing' -benchtime 20x
const (
	fleetAgents   = 1000
	fleetLogLines = 1000
	fleetSmall    = 10
)

var (
	fleetsMu sync.Mutex
	fleets   = map[int]string{}
)

// scaleFleet builds, once per binary, a fleet of n agents at that
// scale per agent; $ST_DASHBOARD_FLEET17 keeps them across runs.
func scaleFleet(tb testing.TB, n int) string {
	tb.Helper()
	fleetsMu.Lock()
	defer fleetsMu.Unlock()
	if dir, ok := fleets[n]; ok {
		return dir
	}
	var dir string
	if keep := os.Getenv("ST_DASHBOARD_FLEET17"); keep != "" {
		dir = filepath.Join(keep, strconv.Itoa(n))
		if _, err := os.Stat(filepath.Join(dir, scaleID(n-1), "events", "s2.jsonl")); err == nil {
			fleets[n] = dir
			return dir
		}
	} else {
		var err error
		if dir, err = os.MkdirTemp("", "st-dashboard-fleet17-"); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { os.RemoveAll(dir) })
	}
	start := time.Now()
	if err := buildFleet(dir, n, scaleMessages, 0); err != nil {
		tb.Fatal(err)
	}
	base := time.Now().Add(-50 * time.Minute)
	for i := range n {
		if err := writeAgentLog(filepath.Join(dir, scaleID(i), "events", "s2.jsonl"), base, fleetLogLines, i); err != nil {
			tb.Fatal(err)
		}
	}
	tb.Logf("built %d agents × %d messages, %d event lines each, in %v", n, scaleMessages, fleetLogLines, time.Since(start).Round(time.Millisecond))
	fleets[n] = dir
	return dir
}

// writeAgentLog writes an agent's session of lines events over the last
// 50 minutes: tool calls with context fills, failures now and then, a
// compaction, and for some agents a closing question or API error.
func writeAgentLog(path string, start time.Time, lines, agent int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 256<<10)
	step := 50 * time.Minute / time.Duration(lines)
	for i := range lines {
		at := start.Add(time.Duration(i) * step)
		var line string
		switch {
		case i == lines/2:
			line = logLine(at, "PreCompact", `,"type":"auto","ctx_tokens":150000,"model":"claude-sonnet-4-5"`)
		case i%53 == 0:
			line = logLine(at, "PostToolUseFailure", `,"tool":"Bash","command":"go test ./...","input":"ab12","error":"exit status 1"`)
		case i == lines-1 && agent%10 == 0:
			line = logLine(at, "Notification", `,"type":"permission_prompt","message":"Claude needs your permission to use Bash"`)
		case i == lines-1 && agent%10 == 1:
			line = logLine(at, "StopFailure", fmt.Sprintf(`,"error":"overloaded","attempt":2,"retry_at":%q`, at.Add(time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")))
		default:
			line = logLine(at, "PostToolUse", fmt.Sprintf(`,"tool":"Read","path":"/src/pkg%d/file%d.go","bytes":5123,"tool_ms":12,"ctx_tokens":%d,"model":"claude-sonnet-4-5"`, i%17, i, 20000+i*100))
		}
		w.WriteString(line)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// BenchmarkFleetScale renders the fleet page of 1,000 agents from the
// kept rows and reports its time against rendering 10 agents' (ratio),
// the CPU it takes, and the process's resident memory with the server
// loaded (the test binary's own included).
func BenchmarkFleetScale(b *testing.B) {
	small := newServer(b, scaleFleet(b, fleetSmall))
	smallMs := medianPage(b, small, 50)
	big := newServer(b, scaleFleet(b, fleetAgents))
	if n := len(big.fleet.IDs()); n != fleetAgents {
		b.Fatalf("%d agents", n)
	}
	benchPage(b, big, "/")
	bigMs := medianPage(b, big, 20)
	b.ReportMetric(bigMs, "median-ms/page")
	b.ReportMetric(smallMs, "median-ms/page-10")
	b.ReportMetric(bigMs/smallMs, "ratio-to-10")
	runtime.GC()
	debug.FreeOSMemory()
	b.ReportMetric(float64(rss())/(1<<20), "rss-MB")
}

// medianPage is the median wall time of n fleet pages, in ms.
func medianPage(b *testing.B, s *Server, n int) float64 {
	h := s.Handler()
	var ms []float64
	for range n {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = testHost
		w := httptest.NewRecorder()
		t0 := time.Now()
		h.ServeHTTP(w, r)
		ms = append(ms, float64(time.Since(t0))/1e6)
		if w.Code != 200 {
			b.Fatalf("GET / = %d", w.Code)
		}
	}
	slices.Sort(ms)
	return ms[len(ms)/2]
}

// rss is the process's resident set size, in bytes.
func rss() int64 {
	data, _ := os.ReadFile("/proc/self/status")
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkLanding: with pages open on the 1,000-agent fleet (fleet
// pages and the page of the agent written to), each iteration writes one
// agent's now.md and times the write to the moment every open page's
// stream has delivered the change. Reports the slowest page's lag.
func BenchmarkLanding(b *testing.B) {
	const fleetPages, agentPages = 10, 10
	root := scaleFleet(b, fleetAgents)
	s, url := serveLoopback(b, root)
	tr, err := fsutil.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	target := scaleID(7)
	type got struct {
		page int
		data string
		at   time.Time
	}
	recv := make(chan got, 1024)
	v := s.fleet.Version()
	for p := range fleetPages + agentPages {
		u := fmt.Sprintf("%s/events?v=%d", url, v)
		if p >= fleetPages {
			u = fmt.Sprintf("%s/events?agent=%s&v=%d", url, target, s.touch(target))
		}
		res, err := http.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		go func() {
			sc := bufio.NewScanner(res.Body)
			sc.Buffer(make([]byte, 1<<20), 16<<20)
			for sc.Scan() {
				if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					recv <- got{p, d, time.Now()}
				}
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // the streams are open
	var worst, sum time.Duration
	i := 0
	cpu0 := cpuTime()
	for b.Loop() {
		mark := fmt.Sprintf("landing mark %d-%d", i, time.Now().UnixNano())
		if _, err := agentctx.WriteNow(tr, target, []byte("# "+mark+"\n")); err != nil {
			b.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(root, target, "context", "now.md"))
		if err != nil {
			b.Fatal(err)
		}
		landed := fi.ModTime()
		seen := map[int]bool{}
		var last time.Time
		timeout := time.After(10 * time.Second)
		for len(seen) < fleetPages+agentPages {
			select {
			case g := <-recv:
				if strings.Contains(g.data, mark) && !seen[g.page] {
					seen[g.page], last = true, g.at
				}
			case <-timeout:
				b.Fatalf("after 10 s, %d of %d pages had the change", len(seen), fleetPages+agentPages)
			}
		}
		lag := last.Sub(landed)
		worst, sum = max(worst, lag), sum+lag
		i++
	}
	// On a shared machine the lag is mostly waiting for a core; the CPU
	// the whole process spent per landing (server and these readers) is
	// what the machine's load does not change.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/landing")
	b.ReportMetric(float64(worst)/1e6, "worst-ms")
	b.ReportMetric(float64(sum)/float64(b.N)/1e6, "mean-ms")
	b.Logf("%d pages open; load %s", fleetPages+agentPages, loadAvg())
}

// BenchmarkBrowserSoak opens the 1,000-agent fleet page in Chromium,
// reports its time to interactive, then for $ST_DASHBOARD_SOAK (a Go
// duration; the benchmark skips without it) writes two agents' now.md a
// second and reports the page's JavaScript heap after a collection at
// the start and at the end, and the median, 99th percentile and slowest
// round trip into the page (how long the page took to run a script: its
// responsiveness). Run by
// scripts/dashboard-bench with 10m.
func BenchmarkBrowserSoak(b *testing.B) {
	soak, err := time.ParseDuration(os.Getenv("ST_DASHBOARD_SOAK"))
	if err != nil || soak <= 0 {
		b.Skip("set ST_DASHBOARD_SOAK=10m (scripts/dashboard-bench) to run the soak")
	}
	browserCtx := startBrowser(b)
	root := scaleFleet(b, fleetAgents)
	_, url := serveLoopback(b, root)
	tr, err := fsutil.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	for b.Loop() {
		// A tab of its own: tab's 90-second limit is for tests.
		ctx, cancel := context.WithTimeout(browserCtx, soak+5*time.Minute)
		ctx, cancelTab := chromedp.NewContext(ctx)
		defer cancel()
		defer cancelTab()
		do_(b, ctx, chromedp.Navigate(url+"/"))
		waitLive(b, ctx)
		tti := eval[float64](b, ctx, `performance.getEntriesByType('navigation')[0].domInteractive`)
		if _, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{}); err != nil {
			b.Fatal(err)
		}
		heap0 := jsHeap(b, ctx)
		end := time.Now().Add(soak)
		var trips []time.Duration
		writes := 0
		for i := 0; time.Now().Before(end); i++ {
			for k := range 2 {
				id := scaleID((i*2 + k) * 37 % fleetAgents)
				if _, err := agentctx.WriteNow(tr, id, fmt.Appendf(nil, "# soak %d\n\nstep %d\n", i, k)); err != nil {
					b.Fatal(err)
				}
				writes++
			}
			t0 := time.Now()
			eval[bool](b, ctx, `true`)
			trips = append(trips, time.Since(t0))
			time.Sleep(time.Second)
		}
		heap1 := jsHeap(b, ctx)
		rows := eval[int](b, ctx, `document.querySelectorAll('#rows .row[data-id]').length`)
		if rows != fleetAgents {
			b.Errorf("%d rows after the soak, want %d", rows, fleetAgents)
		}
		b.ReportMetric(tti, "tti-ms")
		b.ReportMetric(heap0/(1<<20), "heap-start-MB")
		b.ReportMetric(heap1/(1<<20), "heap-end-MB")
		slices.Sort(trips)
		at := func(q float64) float64 { return float64(trips[int(q*float64(len(trips)-1))]) / 1e6 }
		b.ReportMetric(at(0.5), "median-roundtrip-ms")
		b.ReportMetric(at(0.99), "p99-roundtrip-ms")
		b.ReportMetric(at(1), "slowest-roundtrip-ms")
		b.Logf("soak %v: %d now.md writes, %d round trips; load %s", soak, writes, len(trips), loadAvg())
	}
}

// jsHeap is the page's used JavaScript heap after a collection, in bytes.
func jsHeap(b *testing.B, ctx context.Context) float64 {
	if _, err := chromedp.Call(ctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
		b.Fatal(err)
	}
	ms, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms.Metrics {
		if m.Name == "JSHeapUsedSize" {
			return m.Value
		}
	}
	return 0
}
