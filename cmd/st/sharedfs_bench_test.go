package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/glustertest"
)

// BenchmarkSharedSends: W writers spread over M mounts of one GlusterFS
// volume run `st message send` back to back for ST_SHAREDBENCH_FOR
// (default 3s) while an observer on a mount of its own lists the inbox
// every 2 ms; next to it the same writers on the local disk. It reports
// sends per second, that rate over the rate of running an empty Go
// binary as many at a time (the floor), and the time from a send's
// return until the observer lists the message (median, p99; 0 when it
// was listed before the sender exited), and on GlusterFS the CPU each
// send cost the brick and the FUSE clients. ST_SHAREDBENCH lists the runs as
// writers:mounts (default "1:1,8:1,8:2,8:4,8:8"); scripts/sharedfs-bench
// runs it.
func BenchmarkSharedSends(b *testing.B) {
	runs := os.Getenv("ST_SHAREDBENCH")
	if runs == "" {
		runs = "1:1,8:1,8:2,8:4,8:8"
	}
	dur := 3 * time.Second
	if d, err := time.ParseDuration(os.Getenv("ST_SHAREDBENCH_FOR")); err == nil {
		dur = d
	}
	bin := stBinary(b)
	floorBin := filepath.Join(filepath.Dir(bin), "emptygo")
	if out, err := exec.Command("go", "build", "-o", floorBin, "../../scripts/emptygo").CombinedOutput(); err != nil {
		b.Fatalf("building the floor: %v: %s", err, out)
	}
	localDone := map[int]bool{} // the local disk is measured once per writer count
	for _, run := range strings.Split(runs, ",") {
		w, m, _ := strings.Cut(run, ":")
		writers, _ := strconv.Atoi(w)
		mounts, _ := strconv.Atoi(m)
		if writers < 1 || mounts < 1 {
			b.Fatalf("ST_SHAREDBENCH: %q is not writers:mounts", run)
		}
		floor := execRate(floorBin, nil, writers, dur)
		if !localDone[writers] {
			localDone[writers] = true
			local := b.TempDir()
			b.Run(fmt.Sprintf("local/writers=%d", writers), func(b *testing.B) {
				sendBench(b, bin, []string{local, local}, writers, dur, floor)
			})
		}
		b.Run(fmt.Sprintf("gluster/writers=%d/mounts=%d", writers, mounts), func(b *testing.B) {
			s, err := glustertest.Setup(mounts + 1)
			if err != nil {
				b.Skipf("skipping: %v", err)
			}
			defer s.Close()
			brick0, clients0 := s.CPU()
			n := sendBench(b, bin, s.Dirs, writers, dur, floor)
			brick1, clients1 := s.CPU()
			if n > 0 {
				perBrick := (brick1 - brick0) / time.Duration(n)
				perClient := (clients1 - clients0) / time.Duration(n)
				b.ReportMetric(float64(perBrick.Microseconds())/1000, "brick-cpu-ms/send")
				b.ReportMetric(float64(perClient.Microseconds())/1000, "client-cpu-ms/send")
				b.Logf("CPU per send: %s in the brick (glusterfsd), %s in the FUSE clients", perBrick, perClient)
			}
		})
	}
}

// execRate is how many runs of bin per second writers loops sustain.
func execRate(bin string, env []string, writers int, dur time.Duration) float64 {
	var mu sync.Mutex
	n := 0
	end := time.Now().Add(dur)
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				cmd := exec.Command(bin)
				cmd.Env = env
				if cmd.Run() == nil {
					mu.Lock()
					n++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return float64(n) / dur.Seconds()
}

// sendBench runs the writers on dirs[1:] (round robin) and the observer
// on dirs[0].
func sendBench(b *testing.B, bin string, dirs []string, writers int, dur time.Duration, floor float64) (sends int) {
	home := b.TempDir()
	root := func(i int) string { return filepath.Join(dirs[i], "store") }
	if err := os.MkdirAll(filepath.Join(root(0), "bob", "inbox"), 0o777); err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	acked := map[string]time.Time{}
	seen := map[string]time.Time{}
	stop := make(chan struct{})
	observed := make(chan struct{})
	go func() { // the observer
		defer close(observed)
		inbox := filepath.Join(root(0), "bob", "inbox")
		for {
			ents, _ := os.ReadDir(inbox)
			now := time.Now()
			for _, e := range ents {
				if _, ok := seen[e.Name()]; !ok {
					seen[e.Name()] = now
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	end := time.Now().Add(dur)
	var wg sync.WaitGroup
	failed := 0
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := 1 + w%(len(dirs)-1)
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "ST_ROOT=" + root(d), "ST_AGENT=alice", "ST_HOST=h" + strconv.Itoa(d)}
			for time.Now().Before(end) {
				cmd := exec.Command(bin, "message", "send", "bob", "-q", "-m", "hello")
				cmd.Env = env
				out, err := cmd.Output()
				now := time.Now()
				mu.Lock()
				if err != nil {
					failed++
				} else {
					acked[strings.TrimSpace(string(out))] = now
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// Let the observer catch up with the last sends (bounded).
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if ents, _ := os.ReadDir(filepath.Join(root(0), "bob", "inbox")); len(ents) >= n {
			break
		}
	}
	time.Sleep(20 * time.Millisecond)
	close(stop)
	<-observed
	var lat []time.Duration
	missing := 0
	for name, at := range acked {
		s, ok := seen[name]
		if !ok {
			missing++
			continue
		}
		lat = append(lat, max(s.Sub(at), 0))
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))].Round(100 * time.Microsecond)
	}
	rate := float64(len(acked)) / dur.Seconds()
	b.ReportMetric(rate, "sends/s")
	b.ReportMetric(rate/floor, "x-floor")
	b.ReportMetric(float64(pct(0.5).Microseconds())/1000, "ms-visible-p50")
	b.ReportMetric(float64(pct(0.99).Microseconds())/1000, "ms-visible-p99")
	b.Logf("%d sends (%d failed), %.0f/s = %.2f of the floor (%.0f empty binaries/s); visible on the observer's mount after p50 %s, p99 %s; %d never listed",
		len(acked), failed, rate, rate/floor, floor, pct(0.5), pct(0.99), missing)
	if failed > 0 || missing > 0 {
		b.Errorf("%d sends failed, %d acknowledged messages never listed", failed, missing)
	}
	return len(acked)
}
