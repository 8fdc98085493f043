package peersync

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// The fleet simulation: N hosts, each a store root reached over the
// loopback sshd, with M agents each sending at a steady rate to agents
// on other hosts, and a sync loop per host:
//
//   - hub: host 0 is the hub; every other host runs `sync --all` (push,
//     then pull) against it each interval;
//   - mesh: every host runs `sync push --all` to every other host.
//
// It reports how long a message takes to become readable on its
// recipient's host (the ctime of its copy there, when rsync gave it its
// final name, minus the send time in its name), rsync bytes and
// processes per host cycle, and how long cycles take against the
// interval. It fails on any message lost or held at two names.

type simConfig struct {
	Topology string        // "hub" or "mesh"
	Hosts    int           // N
	Agents   int           // M per host
	Interval time.Duration // each host's sync interval
	SendFor  time.Duration // how long agents send
	PerAgent time.Duration // mean time between one agent's messages
	Drain    time.Duration // longest wait for the last deliveries
	// Serve runs each host's `sync serve` (Syncer.Serve: rounds every
	// Interval, a push after each local change) instead of a loop of
	// `sync --all` / `sync push --all` every Interval.
	Serve bool
	// Watch has each spoke's serve keep a connection to the hub's `st
	// sync watch` (the sshd's PATH must hold st: stOnPath) and pull what
	// it reports at once.
	Watch bool
}

type simResult struct {
	Sent, Lost, Doubled int
	// Rewrites counts the agents' state rewrites (status and now.md, at
	// home); Reverted the times a host was seen holding an older now.md
	// than before, or a home host not its own newest; Behind the copies
	// not at the newest write once the run drained.
	Rewrites, Reverted, Behind int
	Median, P95, P99           time.Duration
	Max                        time.Duration
	// HubMedian and HubP95 are, with a hub, how long a message between
	// two spokes took to reach the hub: the first half of its way.
	HubMedian, HubP95  time.Duration
	Cycles             int           // host sync cycles run
	CycleMedian        time.Duration // one host's cycle, sync start to end
	CycleMax           time.Duration
	Overruns           int           // cycles longer than the interval
	BytesPerCycle      float64       // rsync bytes sent + received, per host cycle
	RsyncPerCycle      float64       // rsync runs per host cycle (each: rsync, ssh, sshd, remote rsync)
	CPUPerCycle        time.Duration // CPU of those processes, both ends, per host cycle
	RsyncPerHostSecond float64       // rsync runs per syncing host per second of sending and drain
	LoadMean, LoadMax  float64       // the machine's 1-minute load average during the run
	Wall               time.Duration // the whole run, drain included
}

func (r simResult) String() string {
	return fmt.Sprintf("sent %d lost %d doubled %d; %d state rewrites, %d reverted, %d behind at the end; readable after median %v p95 %v p99 %v max %v (at the hub after median %v p95 %v); %d cycles, cycle median %v max %v, %d over the interval; %.0f rsync bytes, %.1f rsync runs and %v CPU per host cycle; %.2f rsync runs per host per second; load average %.1f (max %.1f), %v in all",
		r.Sent, r.Lost, r.Doubled, r.Rewrites, r.Reverted, r.Behind, r.Median.Round(time.Millisecond), r.P95.Round(time.Millisecond), r.P99.Round(time.Millisecond), r.Max.Round(time.Millisecond),
		r.HubMedian.Round(time.Millisecond), r.HubP95.Round(time.Millisecond),
		r.Cycles, r.CycleMedian.Round(time.Millisecond), r.CycleMax.Round(time.Millisecond), r.Overruns, r.BytesPerCycle, r.RsyncPerCycle, r.CPUPerCycle.Round(time.Millisecond),
		r.RsyncPerHostSecond, r.LoadMean, r.LoadMax, r.Wall.Round(time.Second))
}

// loadAverage is the machine's 1-minute load average (0 where unknown).
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// statsCounter reads rsync --stats output as it is written.
type statsCounter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	bytes int64
	runs  int64
}

func (c *statsCounter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	for {
		line, err := c.buf.ReadString('\n')
		if err != nil {
			c.buf.WriteString(line)
			return len(p), nil
		}
		for _, prefix := range []string{"Total bytes sent: ", "Total bytes received: "} {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
				n, _ := strconv.ParseInt(strings.ReplaceAll(v, ",", ""), 10, 64)
				c.bytes += n
				if strings.HasPrefix(prefix, "Total bytes received") {
					c.runs++
				}
			}
		}
	}
}

func runFleetSim(tb testing.TB, srv *sshtest.Server, cfg simConfig) simResult {
	tb.Helper()
	// rsync with --stats, so the sim can count bytes.
	bin := tb.TempDir()
	real, err := lookPath("rsync", os.Getenv("PATH"))
	if err != nil {
		tb.Skip("rsync not installed")
	}
	wrapper := "#!/bin/sh\nexec " + real + " --stats \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "rsync"), []byte(wrapper), 0o755); err != nil {
		tb.Fatal(err)
	}
	stats := &statsCounter{}
	cpu0 := childCPU(srv)
	began := time.Now()
	// The load average, sampled every 5 s while the run lasts.
	var loads []float64
	var loadsMu sync.Mutex
	stopLoad := make(chan struct{})
	loadDone := make(chan struct{})
	go func() {
		defer close(loadDone)
		for {
			loadsMu.Lock()
			loads = append(loads, loadAverage())
			loadsMu.Unlock()
			select {
			case <-stopLoad:
				return
			case <-time.After(5 * time.Second):
			}
		}
	}()
	roots := make([]string, cfg.Hosts)
	syncers := make([]*Syncer, cfg.Hosts)
	peerSpecs := make([][]string, cfg.Hosts)
	for i := range roots {
		roots[i] = filepath.Join(tb.TempDir(), "root")
		os.MkdirAll(roots[i], 0o777)
	}
	agent := func(host, j int) string { return fmt.Sprintf("h%da%d", host, j) }
	for i := range roots {
		var peers strings.Builder
		for j := range roots {
			if j != i && (cfg.Topology == "mesh" || (i != 0 && j == 0)) {
				fmt.Fprintf(&peers, "h%d: %s\n", j, srv.Spec(roots[j]))
				peerSpecs[i] = append(peerSpecs[i], srv.Spec(roots[j]))
			}
		}
		cfgDir := tb.TempDir()
		os.WriteFile(filepath.Join(cfgDir, PeersFile), []byte(peers.String()), 0o666)
		syncers[i] = &Syncer{Root: roots[i], ConfigDir: cfgDir, PathEnv: bin, Stdout: stats, Log: simLog(tb, i), Host: fmt.Sprintf("h%d", i),
			StateDir: tb.TempDir(), Transport: Transport{RSH: srv.RSH()}}
		t, err := fsutil.OpenOrCreate(roots[i])
		if err != nil {
			tb.Fatal(err)
		}
		for j := range cfg.Agents {
			t.MkdirAll(agent(i, j) + "/inbox")
			t.MkdirAll(agent(i, j) + "/archive")
		}
		t.Close()
	}

	// Senders: each agent sends to a random agent on another host.
	type sent struct {
		to         string
		host, from int
		at         time.Time
	}
	var mu sync.Mutex
	ledger := map[string]sent{} // name -> where it must arrive
	var wg sync.WaitGroup
	stopSend := time.Now().Add(cfg.SendFor)
	for i := range roots {
		for j := range cfg.Agents {
			wg.Go(func() {
				t, err := fsutil.Open(roots[i])
				if err != nil {
					tb.Error(err)
					return
				}
				defer t.Close()
				for time.Now().Before(stopSend) {
					time.Sleep(time.Duration(rand.Int64N(int64(2 * cfg.PerAgent))))
					h := rand.IntN(cfg.Hosts - 1)
					if h >= i {
						h++
					}
					to := agent(h, rand.IntN(cfg.Agents))
					now := time.Now()
					name, err := inbox.Send(t, to, message.Message{From: agent(i, j), Body: []byte("fleet\n")}, now)
					if err != nil {
						tb.Error(err)
						return
					}
					mu.Lock()
					ledger[name] = sent{to: to, host: h, from: i, at: now}
					mu.Unlock()
				}
			})
		}
	}

	// State: each host's agents rewrite their status and now.md at home
	// as often as they send; a checker samples every copy of every
	// now.md and counts any that went back.
	type homeState struct {
		mu     sync.Mutex
		newest map[string]int // agent -> version of its newest now.md
	}
	homes := make([]*homeState, cfg.Hosts)
	var rewrites atomic.Int64
	for i := range roots {
		homes[i] = &homeState{newest: map[string]int{}}
		wg.Go(func() {
			t, err := fsutil.Open(roots[i])
			if err != nil {
				tb.Error(err)
				return
			}
			defer t.Close()
			for time.Now().Before(stopSend) {
				time.Sleep(time.Duration(rand.Int64N(int64(2 * cfg.PerAgent / time.Duration(cfg.Agents)))))
				id := agent(i, rand.IntN(cfg.Agents))
				h := homes[i]
				h.mu.Lock()
				v := h.newest[id] + 1
				t.MkdirAll(id + "/context")
				err := status.Set(t, id, stateStates[v%len(stateStates)])
				if err == nil {
					_, err = agentctx.WriteNow(t, id, []byte(fmt.Sprintf("%s v%d\n", id, v)))
				}
				if err == nil {
					h.newest[id] = v
					err = fleet.MarkHome(syncers[i].StateDir, roots[i], id, time.Now())
				}
				h.mu.Unlock()
				if err != nil {
					tb.Error(err)
					return
				}
				rewrites.Add(1)
			}
		})
	}
	var reverted atomic.Int64
	seen := map[string]int{} // "<host>/<agent>" -> newest version seen there
	sample := func() {
		for i, root := range roots {
			for a := range cfg.Hosts {
				for j := range cfg.Agents {
					id := agent(a, j)
					home := homes[a]
					if a == i {
						home.mu.Lock()
					}
					data, _ := os.ReadFile(filepath.Join(root, id, "context/now.md"))
					v := versionOf(data)
					if a == i {
						if v != home.newest[id] {
							reverted.Add(1)
							tb.Errorf("host %d holds its own %s's now.md v%d, wrote v%d", i, id, v, home.newest[id])
						}
						home.mu.Unlock()
					}
					key := fmt.Sprintf("%d/%s", i, id)
					if v < seen[key] {
						reverted.Add(1)
						tb.Errorf("host %d: %s's now.md went back from v%d to v%d", i, id, seen[key], v)
					}
					seen[key] = max(seen[key], v)
				}
			}
		}
	}
	stopSample := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stopSample:
				return
			case <-time.After(time.Second):
				sample()
			}
		}
	}()
	// behind counts the copies of now.md not at their agent's newest.
	behind := func() int {
		n := 0
		for _, root := range roots {
			for a := range cfg.Hosts {
				for j := range cfg.Agents {
					id := agent(a, j)
					homes[a].mu.Lock()
					want := homes[a].newest[id]
					homes[a].mu.Unlock()
					data, _ := os.ReadFile(filepath.Join(root, id, "context/now.md"))
					if versionOf(data) != want {
						n++
					}
				}
			}
		}
		return n
	}

	// Sync loops.
	var cycles []time.Duration
	var partial float64 // cycles cut short, as a fraction of a whole
	var cyclesMu sync.Mutex
	var stopSync atomic.Bool
	var loops sync.WaitGroup
	serveCtx, stopServe := context.WithCancel(context.Background())
	defer stopServe()
	for i := range roots {
		if cfg.Topology == "hub" && i == 0 {
			continue // the hub only serves
		}
		if cfg.Serve {
			verb := "" // a spoke pushes to and pulls from the hub
			if cfg.Topology == "mesh" {
				verb = "push"
			}
			watch := ""
			if cfg.Watch {
				watch = "st"
			}
			loops.Go(func() {
				// Hosts start over one interval, as the cron loops do.
				time.Sleep(time.Duration(rand.Int64N(int64(cfg.Interval))))
				if err := syncers[i].Serve(serveCtx, ServeOptions{Verb: verb, Interval: cfg.Interval, Watch: watch}); err != nil {
					tb.Error(err)
				}
			})
			continue
		}
		loops.Go(func() {
			// Spread the hosts' first cycles over one interval.
			time.Sleep(time.Duration(rand.Int64N(int64(cfg.Interval))))
			for !stopSync.Load() {
				start := time.Now()
				done := 0
				if cfg.Topology == "mesh" {
					// sync push --all, peer by peer, so a long cycle
					// (31 pushes at 32 hosts) ends at the stop.
					for _, spec := range peerSpecs[i] {
						if stopSync.Load() {
							break
						}
						syncers[i].Push(spec)
						done++
					}
				} else {
					syncers[i].All("")
					done = len(peerSpecs[i])
				}
				d := time.Since(start)
				cyclesMu.Lock()
				if done == len(peerSpecs[i]) {
					cycles = append(cycles, d)
				} else {
					// Cut short by the stop: a fraction of a cycle's runs.
					partial += float64(done) / float64(len(peerSpecs[i]))
				}
				cyclesMu.Unlock()
				if d < cfg.Interval {
					time.Sleep(cfg.Interval - d)
				}
			}
		})
	}
	wg.Wait()

	// Drain: wait until every message is readable where it is going.
	arrived := func() (bool, map[string]time.Time) {
		mu.Lock()
		defer mu.Unlock()
		when := map[string]time.Time{}
		for name, s := range ledger {
			var st syscall.Stat_t
			if syscall.Stat(filepath.Join(roots[s.host], s.to, "inbox", name), &st) != nil {
				return false, nil
			}
			when[name] = time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
		}
		return true, when
	}
	deadline := time.Now().Add(cfg.Drain)
	done, when := arrived()
	for !done && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		done, when = arrived()
	}
	// And until every copy of every agent's state is the newest.
	for behind() > 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	stopSync.Store(true)
	stopServe()
	loops.Wait()
	close(stopSample)
	<-sampled
	sample()

	syncing := cfg.Hosts
	if cfg.Topology == "hub" {
		syncing--
	}
	stats.mu.Lock()
	runs := stats.runs
	stats.mu.Unlock()
	rsyncRate := float64(runs) / float64(syncing) / time.Since(began).Seconds()

	var r simResult
	r.Sent = len(ledger)
	r.RsyncPerHostSecond = rsyncRate
	r.Rewrites, r.Reverted, r.Behind = int(rewrites.Load()), int(reverted.Load()), behind()
	if r.Behind > 0 {
		tb.Errorf("%d copies of the agents' state are not the newest", r.Behind)
	}
	var lat, hubLat []time.Duration
	for name, s := range ledger {
		var st syscall.Stat_t
		if cfg.Topology == "hub" && s.from != 0 && s.host != 0 && syscall.Stat(filepath.Join(roots[0], s.to, "inbox", name), &st) == nil {
			hubLat = append(hubLat, max(0, time.Unix(st.Ctim.Sec, st.Ctim.Nsec).Sub(time.UnixMilli(message.Timestamp(name)))))
		}
	}
	for name, s := range ledger {
		var st syscall.Stat_t
		if syscall.Stat(filepath.Join(roots[s.host], s.to, "inbox", name), &st) != nil {
			r.Lost++
			continue
		}
		if when == nil {
			when = map[string]time.Time{}
		}
		at := time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
		if w, ok := when[name]; ok {
			at = w
		}
		// Readable from the moment of its final name on that host; the
		// name's milliseconds are the send time.
		lat = append(lat, max(0, at.Sub(time.UnixMilli(message.Timestamp(name)))))
	}
	// No message at two names on any host: every canonical name held is
	// one sent, each once per host.
	for i, root := range roots {
		seen := map[string]bool{}
		for a := range cfg.Hosts {
			for j := range cfg.Agents {
				for _, dir := range []string{"inbox", "archive"} {
					names, _ := os.ReadDir(filepath.Join(root, agent(a, j), dir))
					for _, e := range names {
						if !message.IsCanonical(e.Name()) {
							continue
						}
						if _, ok := ledger[e.Name()]; !ok || seen[e.Name()] {
							tb.Errorf("host %d: %s/%s/%s is unknown or doubled", i, agent(a, j), dir, e.Name())
							r.Doubled++
						}
						seen[e.Name()] = true
					}
				}
			}
		}
	}
	slices.Sort(lat)
	if len(lat) > 0 {
		r.Median, r.P95, r.P99, r.Max = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*95/100)], lat[min(len(lat)-1, len(lat)*99/100)], lat[len(lat)-1]
	}
	slices.Sort(hubLat)
	if len(hubLat) > 0 {
		r.HubMedian, r.HubP95 = hubLat[len(hubLat)/2], hubLat[min(len(hubLat)-1, len(hubLat)*95/100)]
	}
	slices.Sort(cycles)
	r.Cycles = len(cycles)
	if len(cycles) > 0 {
		r.CycleMedian, r.CycleMax = cycles[len(cycles)/2], cycles[len(cycles)-1]
		for _, c := range cycles {
			if c > cfg.Interval {
				r.Overruns++
			}
		}
		whole := float64(len(cycles)) + partial
		r.BytesPerCycle = float64(stats.bytes) / whole
		r.RsyncPerCycle = float64(stats.runs) / whole
		r.CPUPerCycle = time.Duration(float64(childCPU(srv)-cpu0) / whole)
	}
	if r.Lost > 0 {
		tb.Errorf("%d of %d messages lost", r.Lost, r.Sent)
	}
	close(stopLoad)
	<-loadDone
	for _, l := range loads {
		r.LoadMean += l / float64(len(loads))
		r.LoadMax = max(r.LoadMax, l)
	}
	r.Wall = time.Since(began)
	return r
}

// childCPU is the CPU time of the processes sync ran that have ended:
// this process's children (rsync, ssh) and the sshd's (its sessions and
// the remote rsync), from /proc (clock ticks of 10 ms).
func childCPU(srv *sshtest.Server) time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	own := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	data, err := os.ReadFile("/proc/" + strconv.Itoa(srv.Pid()) + "/stat")
	if err != nil {
		return own
	}
	_, rest, _ := bytes.Cut(data, []byte(") "))
	f := strings.Fields(string(rest))
	if len(f) < 15 {
		return own
	}
	cu, _ := strconv.ParseInt(f[13], 10, 64) // cutime (field 16)
	cs, _ := strconv.ParseInt(f[14], 10, 64) // cstime (field 17)
	return own + time.Duration(cu+cs)*10*time.Millisecond
}

// A small fleet in the suite: three hosts around a hub, no loss, no
// message at two names.
func TestFleetSimSmall(t *testing.T) {
	srv := sshtest.ForTest(t)
	r := runFleetSim(t, srv, simConfig{Topology: "hub", Hosts: 3, Agents: 2, Interval: time.Second,
		SendFor: 3 * time.Second, PerAgent: time.Second, Drain: 30 * time.Second})
	t.Log(r)
	if r.Sent == 0 {
		t.Fatal("nothing sent")
	}
}

// The same fleet with every spoke running sync serve and watching the
// hub's arrivals: nothing lost or doubled, and serve stops when asked.
func TestFleetSimServe(t *testing.T) {
	srv := sshtest.ForTestWithPath(t, stOnPath(t))
	r := runFleetSim(t, srv, simConfig{Topology: "hub", Hosts: 3, Agents: 2, Interval: time.Second,
		SendFor: 3 * time.Second, PerAgent: time.Second, Drain: 30 * time.Second, Serve: true, Watch: true})
	t.Log(r)
	if r.Sent == 0 {
		t.Fatal("nothing sent")
	}
}

// BenchmarkFleetSim runs the simulations ST_FLEETSIM names (default
// "hub:2,mesh:2"; scripts/fleetsim runs 2, 8 and 32 hosts), once each.
func BenchmarkFleetSim(b *testing.B) {
	spec := os.Getenv("ST_FLEETSIM")
	if spec == "" {
		spec = "hub:2,mesh:2"
	}
	srv := sshtest.ForTestWithPath(b, stOnPath(b))
	interval, sendFor, drain := 5*time.Second, 30*time.Second, 5*time.Minute
	mode := os.Getenv("ST_FLEETSIM_MODE")
	serve := mode == "serve" || mode == "serve-nowatch"
	for name, d := range map[string]*time.Duration{"ST_FLEETSIM_INTERVAL": &interval, "ST_FLEETSIM_SEND": &sendFor, "ST_FLEETSIM_DRAIN": &drain} {
		if v, err := time.ParseDuration(os.Getenv(name)); err == nil {
			*d = v
		}
	}
	for _, one := range strings.Split(spec, ",") {
		topo, n, _ := strings.Cut(one, ":")
		hosts, err := strconv.Atoi(n)
		if err != nil || hosts < 2 || topo != "hub" && topo != "mesh" {
			b.Fatalf("bad ST_FLEETSIM entry %q (want hub:N or mesh:N)", one)
		}
		b.Run(fmt.Sprintf("%s/N=%d", topo, hosts), func(b *testing.B) {
			for b.Loop() {
				r := runFleetSim(b, srv, simConfig{Topology: topo, Hosts: hosts, Agents: 5, Interval: interval,
					SendFor: sendFor, PerAgent: 10 * time.Second, Drain: drain, Serve: serve, Watch: mode == "serve"})
				b.Log(r)
				b.ReportMetric(float64(r.Median.Milliseconds()), "median-ms")
				b.ReportMetric(float64(r.P95.Milliseconds()), "p95-ms")
				b.ReportMetric(float64(r.P99.Milliseconds()), "p99-ms")
				b.ReportMetric(r.BytesPerCycle, "rsync-bytes/cycle")
				b.ReportMetric(r.RsyncPerCycle, "rsyncs/cycle")
				b.ReportMetric(r.RsyncPerHostSecond, "rsyncs/host/s")
				b.ReportMetric(float64(r.CycleMedian.Milliseconds()), "cycle-ms")
				b.ReportMetric(float64(r.CPUPerCycle.Milliseconds()), "cpu-ms/cycle")
				b.ReportMetric(float64(r.Lost+r.Doubled), "lost+doubled")
				b.ReportMetric(float64(r.Reverted), "reverted")
			}
		})
	}
}

// simLog is host i's sync log: failures are worth seeing with -v
// (ST_FLEETSIM_LOG=1), the rest is noise.
func simLog(tb testing.TB, i int) io.Writer {
	if os.Getenv("ST_FLEETSIM_LOG") == "" {
		return io.Discard
	}
	return &prefixLog{tb: tb, prefix: fmt.Sprintf("h%d ", i)}
}

type prefixLog struct {
	tb     testing.TB
	prefix string
}

func (l *prefixLog) Write(p []byte) (int, error) {
	l.tb.Log(l.prefix + strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
