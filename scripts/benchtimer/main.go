// Command benchtimer times whole processes: it runs the commands many
// times, in turn (stdin /dev/null, output discarded), so a change in the
// machine's load falls on all of them alike, and prints each one's median
// wall time and its ratio to the first command's median (the baseline:
// an empty static Go program, or the read floor, in scripts/bench), and
// the same for the CPU time (user + system), which the load of a shared
// machine moves less. With -populate DIR N it instead fills DIR with N
// canonical message files, and with -reservations ROOT N it writes N
// active reservations (10 agents) into the store at ROOT. Used by
// scripts/bench; not by CI. A command whose last word is <FILE reads
// FILE on its stdin; leading NAME=value words are set in its environment.
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

	"github.com/smalltalk-go/st/reserve"
)

func main() {
	runs := flag.Int("n", 200, "runs per command")
	populate := flag.String("populate", "", "fill this folder with messages and exit")
	count := flag.Int("count", 10000, "messages for -populate")
	raw := flag.String("raw", "", "append each command's median in nanoseconds to this file")
	reservations := flag.String("reservations", "", "write -count reservations into this store root (repository: -repo) and exit")
	repo := flag.String("repo", "/repo", "the repository of -reservations")
	flag.Parse()
	if *reservations != "" {
		if err := reserve.Populate(*reservations, *repo, 10, *count/10, false); err != nil {
			fmt.Fprintln(os.Stderr, "benchtimer:", err)
			os.Exit(1)
		}
		return
	}
	if *populate != "" {
		if err := fill(*populate, *count); err != nil {
			fmt.Fprintln(os.Stderr, "benchtimer:", err)
			os.Exit(1)
		}
		return
	}
	var cmds [][]string
	for _, c := range flag.Args() {
		cmds = append(cmds, strings.Fields(c))
	}
	stats, err := measure(cmds, *runs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtimer:", err)
		os.Exit(1)
	}
	fmt.Printf("%-44s %10s %10s %8s %10s %8s %10s\n", "command", "median", "p90", "ratio", "CPU", "ratio", "max RSS")
	for i, c := range flag.Args() {
		st, base := stats[i], stats[0]
		fmt.Printf("%-44s %10s %10s %7.2fx %10s %7.2fx %8d KB\n", c, round(st.wall), round(st.p90), float64(st.wall)/float64(base.wall),
			round(st.cpu), float64(st.cpu)/float64(base.cpu), st.rss)
		if *raw != "" {
			if err := appendRaw(*raw, c, st.wall, st.rss); err != nil {
				fmt.Fprintln(os.Stderr, "benchtimer:", err)
				os.Exit(1)
			}
		}
	}
}

// stat is one command's medians: wall time, its 90th percentile, CPU
// time (user + system) and peak resident memory in KB.
type stat struct {
	wall, p90, cpu time.Duration
	rss            int64
}

// measure runs the commands in turn, runs rounds after a tenth as many
// that warm caches, and returns their medians.
func measure(cmds [][]string, runs int) ([]stat, error) {
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = devnull.Close() }() // /dev/null: nothing to lose
	walls := make([][]time.Duration, len(cmds))
	cpus := make([][]time.Duration, len(cmds))
	rsss := make([][]int64, len(cmds))
	for round := 0; round < runs+runs/10; round++ {
		for i, argv := range cmds {
			// Output goes to /dev/null, not into this process: a child's
			// peak RSS counts this process's at the exec (the vfork
			// shares it), so buffering a big output here would inflate
			// every command's figure.
			var in *os.File
			if last := argv[len(argv)-1]; strings.HasPrefix(last, "<") {
				// "cmd args <FILE": FILE is the command's stdin (a hook's payload).
				if in, err = os.Open(last[1:]); err != nil {
					return nil, err
				}
				argv = argv[:len(argv)-1]
			}
			env, argv := splitEnv(argv)
			cmd := exec.Command(argv[0], argv[1:]...)
			if len(env) > 0 {
				cmd.Env = append(os.Environ(), env...)
			}
			cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
			if in != nil {
				cmd.Stdin = in
			}
			start := time.Now()
			// A command's own exit status (session-start exits 2 by
			// design) does not matter here; failing to run it does.
			var exit *exec.ExitError
			err := cmd.Run()
			if in != nil {
				_ = in.Close() // a file read as stdin: nothing to lose
			}
			if err != nil && !errors.As(err, &exit) {
				return nil, fmt.Errorf("%s: %v", strings.Join(argv, " "), err)
			}
			if round < runs/10 {
				continue
			}
			walls[i] = append(walls[i], time.Since(start))
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				cpus[i] = append(cpus[i], time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
				rsss[i] = append(rsss[i], ru.Maxrss)
			}
		}
	}
	stats := make([]stat, len(cmds))
	for i := range cmds {
		stats[i] = stat{wall: median(walls[i]), p90: percentile(walls[i], 9), cpu: median(cpus[i]), rss: median(rsss[i])}
	}
	return stats, nil
}

// median sorts xs and returns its middle element (zero when empty).
func median[T time.Duration | int64](xs []T) T { return percentile(xs, 5) }

// percentile sorts xs and returns the element tenths of the way up.
func percentile[T time.Duration | int64](xs []T, tenths int) T {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)*tenths/10]
}

// appendRaw appends "median-ns<TAB>command<TAB>rss-KB" to path, for
// scripts/bench's derived targets.
func appendRaw(path, cmd string, med time.Duration, rss int64) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "%d\t%s\t%d\n", med.Nanoseconds(), cmd, rss); err != nil {
		_ = f.Close() // the write error is the one to report
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

// splitEnv takes the leading NAME=value words off argv, as a shell would
// read them.
func splitEnv(argv []string) (env, rest []string) {
	for len(argv) > 1 {
		name, _, ok := strings.Cut(argv[0], "=")
		if !ok || name == "" || strings.ContainsAny(name, "/.<") {
			break
		}
		env, argv = append(env, argv[0]), argv[1:]
	}
	return env, argv
}
