package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// buildDashboard builds st-dashboard next to the st of buildST, where
// `st dashboard` looks for it first.
var buildDashboard = sync.OnceValues(func() (string, error) {
	st, err := buildST()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(filepath.Dir(st), "st-dashboard")
	build := exec.Command("go", "build", "-o", bin, "../st-dashboard")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", &exec.Error{Name: "go build st-dashboard: " + string(out), Err: err}
	}
	return st, nil
})

// TestDashboardExec: st dashboard execs st-dashboard, which prints its
// URL, serves the fleet on loopback and exits 0 on the first SIGINT.
func TestDashboardExec(t *testing.T) {
	if testing.Short() {
		t.Skip("builds st-dashboard: skipped in -short mode")
	}
	st, err := buildDashboard()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "alice", "inbox"), 0o777)
	cmd := exec.Command(st, "dashboard", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "ST_ROOT="+root, "ST_AGENT=alice")
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url := strings.TrimSpace(line)
	if err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("first line %q, %v; stderr %s", line, err, stderr.String())
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `href="/agent/alice"`) {
		t.Errorf("GET %s = %d:\n%s", url, res.StatusCode, body)
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil || stderr.Len() != 0 {
			t.Errorf("exit: %v, stderr %q", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10s after SIGINT")
	}
}

// TestDashboardMissing: without st-dashboard beside st or on PATH, st
// dashboard says so and exits 1.
func TestDashboardMissing(t *testing.T) {
	st, err := buildST()
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "st")
	data, _ := os.ReadFile(st)
	os.WriteFile(alone, data, 0o755)
	cmd := exec.Command(alone, "dashboard")
	cmd.Env = append(os.Environ(), "PATH=", "ST_ROOT="+t.TempDir())
	out, err := cmd.CombinedOutput()
	want := "st: the dashboard st-dashboard is not installed next to " + alone + " or on PATH (install both: go install ./cmd/...)\n"
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || string(out) != want {
		t.Errorf("= %v, %q; want exit 1, %q", err, out, want)
	}
}
