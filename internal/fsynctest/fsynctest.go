// Package fsynctest counts the fsyncs a real process makes, for tests
// that prove a write path is durable or that it is not: it runs the
// process under strace, which sees every sync call whatever library
// makes it.
package fsynctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// syncCalls are the system calls that push a file's data to the disk.
const syncCalls = "fsync,fdatasync,syncfs,sync_file_range,sync"

// Helper re-runs the calling test binary with only the test named run
// and env added, so a test can count the fsyncs of code it drives in
// process (the helper test does the work when it sees env).
func Helper(run string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^"+run+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// Synced runs cmd under strace and returns one line per sync call it and
// its children made, naming the file synced. A missing strace skips the
// test (CI installs it).
func Synced(t testing.TB, cmd *exec.Cmd) []string {
	t.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace is not installed")
	}
	trace := filepath.Join(t.TempDir(), "strace")
	cmd.Args = append([]string{strace, "-f", "-qq", "-y", "-o", trace, "-e", "trace=" + syncCalls, cmd.Path}, cmd.Args[1:]...)
	cmd.Path = strace
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for line := range strings.Lines(string(data)) {
		if isSyncCall(line) {
			calls = append(calls, strings.TrimSpace(line))
		}
	}
	return calls
}

// isSyncCall reports whether a strace line (its "<pid> " prefix, with
// -f and -o, included) is one of syncCalls.
func isSyncCall(line string) bool {
	_, call, _ := strings.Cut(line, " ")
	call = strings.TrimLeft(call, " ")
	name, _, ok := strings.Cut(call, "(")
	return ok && strings.Contains(","+syncCalls+",", ","+name+",")
}
