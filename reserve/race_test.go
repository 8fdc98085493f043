package reserve

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

// TestMain lets the race test run this binary as its racing processes.
func TestMain(m *testing.M) {
	if agent := os.Getenv("ST_RESERVE_RACER"); agent != "" {
		os.Exit(racer(agent))
	}
	os.Exit(m.Run())
}

// racer asks, in every round's store, for an exclusive reservation that
// overlaps every other racer's, and prints how many it got.
func racer(agent string) int {
	base := os.Getenv("ST_RESERVE_BASE")
	rounds, _ := strconv.Atoi(os.Getenv("ST_RESERVE_ROUNDS"))
	n, _ := strconv.Atoi(strings.TrimPrefix(agent, "racer"))
	pattern := []string{"src/**", "src/a.go", "src/*.go", "**/a.go"}[n%4]
	granted := 0
	for k := range rounds {
		root := filepath.Join(base, strconv.Itoa(k))
		t, err := fsutil.OpenOrCreate(root)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		_, err = Reserve(context.Background(), t, Request{Agent: agent, Repo: Where{Top: "/repo"}, Patterns: []string{pattern}}, time.Now())
		t.Close()
		switch {
		case err == nil:
			granted++
		case sterr.CodeOf(err) != Conflict:
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	fmt.Println(granted)
	return 0
}

// TestRacingProcesses: several processes ask for overlapping exclusive
// reservations in the same store at the same instant, round after round;
// every round must end with exactly one grant. ST_RESERVE_ROUNDS raises
// the rounds (scripts/reserve-race runs thousands of attempts).
func TestRacingProcesses(t *testing.T) {
	procs, rounds := 6, 40
	if v, err := strconv.Atoi(os.Getenv("ST_RESERVE_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	base := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	total := make([]int, procs)
	errs := make([]error, procs)
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), "ST_RESERVE_RACER=racer"+strconv.Itoa(i), "ST_RESERVE_BASE="+base,
				"ST_RESERVE_ROUNDS="+strconv.Itoa(rounds), "TMPDIR="+base)
			out, err := cmd.Output()
			if err != nil {
				errs[i] = fmt.Errorf("racer %d: %v: %s", i, err, out)
				return
			}
			total[i], errs[i] = strconv.Atoi(strings.TrimSpace(string(out)))
		}()
	}
	wg.Wait()
	granted := 0
	for i := range procs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		granted += total[i]
	}
	double := 0
	for k := range rounds {
		files, _ := filepath.Glob(filepath.Join(base, strconv.Itoa(k), "*", Folder, "*.json"))
		if len(files) != 1 {
			double++
			t.Errorf("round %d: %d grants: %v", k, len(files), files)
		}
	}
	if granted != rounds {
		t.Errorf("%d grants reported over %d rounds", granted, rounds)
	}
	t.Logf("%d processes, %d rounds, %d attempts: %d rounds with other than one grant", procs, rounds, procs*rounds, double)
}
