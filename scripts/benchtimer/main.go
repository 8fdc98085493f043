// Command benchtimer times whole processes: it runs each command many
// times (stdin /dev/null, output discarded) and prints the median wall
// time and its ratio to the first command's median (the baseline: an
// empty static Go program in scripts/bench). With -populate DIR N it
// instead fills DIR with N canonical message files. Used by
// scripts/bench; not by CI.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("n", 200, "runs per command")
	populate := flag.String("populate", "", "fill this folder with messages and exit")
	count := flag.Int("count", 10000, "messages for -populate")
	raw := flag.String("raw", "", "append each command's median in nanoseconds to this file")
	flag.Parse()
	if *populate != "" {
		if err := fill(*populate, *count); err != nil {
			fmt.Fprintln(os.Stderr, "benchtimer:", err)
			os.Exit(1)
		}
		return
	}
	var base time.Duration
	fmt.Printf("%-44s %10s %10s %8s %10s\n", "command", "median", "p90", "ratio", "max RSS")
	for i, c := range flag.Args() {
		med, p90, rss, err := measure(strings.Fields(c), *runs)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchtimer: %s: %v\n", c, err)
			os.Exit(1)
		}
		if i == 0 {
			base = med
		}
		fmt.Printf("%-44s %10s %10s %7.2fx %8d KB\n", c, round(med), round(p90), float64(med)/float64(base), rss)
		if *raw != "" {
			if err := appendRaw(*raw, c, med, rss); err != nil {
				fmt.Fprintln(os.Stderr, "benchtimer:", err)
				os.Exit(1)
			}
		}
	}
}

// measure runs argv runs times and returns the median and 90th
// percentile wall times and the median of the processes' peak resident
// memory in KB.
func measure(argv []string, runs int) (median, p90 time.Duration, rss int64, err error) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return 0, 0, 0, err
	}
	defer devnull.Close()
	times := make([]time.Duration, 0, runs)
	var rsss []int64
	for i := 0; i < runs+runs/10; i++ {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin = devnull
		start := time.Now()
		// A command's own exit status (session-start exits 2 by design)
		// does not matter here; failing to run it does.
		var exit *exec.ExitError
		if out, err := cmd.CombinedOutput(); err != nil && !errors.As(err, &exit) {
			return 0, 0, 0, fmt.Errorf("%v: %s", err, out)
		}
		if i >= runs/10 { // the first tenth warms caches
			times = append(times, time.Since(start))
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rsss = append(rsss, ru.Maxrss)
			}
		}
	}
	slices.Sort(times)
	slices.Sort(rsss)
	if len(rsss) > 0 {
		rss = rsss[len(rsss)/2]
	}
	return times[len(times)/2], times[len(times)*9/10], rss, nil
}

// appendRaw appends "median-ns<TAB>command<TAB>rss-KB" to path, for
// scripts/bench's derived targets.
func appendRaw(path, cmd string, med time.Duration, rss int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "%d\t%s\t%d\n", med.Nanoseconds(), cmd, rss); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func round(d time.Duration) string { return d.Round(10 * time.Microsecond).String() }

// fill writes count canonical messages from alice into dir.
func fill(dir string, count int) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	ts := time.Now().UnixMilli() - int64(count)
	for i := range count {
		name := fmt.Sprintf("%013d-%06d.md", ts+int64(i), i%1000000)
		body := fmt.Sprintf("---\nfrom: alice\nsubject: \"message %d\"\ntags: [bench, load]\n---\nbody %d\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o666); err != nil {
			return err
		}
	}
	return nil
}
