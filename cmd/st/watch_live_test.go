package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run the real st binary: a live watch is a long-running
// process that must react to other processes and to signals.

// buildST builds ./cmd/st once per test process; every test and
// benchmark that runs the real binary shares it.
var buildST = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "st-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "st")
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	build := exec.Command(goBin, "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as the README installs it
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v\n%s", err, out)
	}
	return bin, nil
})

// stBinary returns the st binary built by buildST; a failed build fails t.
func stBinary(t testing.TB) string {
	t.Helper()
	bin, err := buildST()
	if err != nil {
		t.Fatalf("building st: %v", err)
	}
	return bin
}

// liveWatch is a running `st watch` whose stdout lines arrive on lines.
type liveWatch struct {
	cmd   *exec.Cmd
	lines chan string
	root  string
	env   []string
}

func startWatch(t *testing.T, root string, args ...string) *liveWatch {
	t.Helper()
	env := append(os.Environ(), "ST_ROOT="+root, "ST_AGENT=alice", "_ST_INVOKED_AS=")
	cmd := exec.Command(stBinary(t), append([]string{"watch"}, args...)...)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &liveWatch{cmd: cmd, lines: make(chan string, 100), root: root, env: env}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return w
}

// expect waits up to d for the line want and fails otherwise.
func (w *liveWatch) expect(t *testing.T, want string, d time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := time.After(d)
	for {
		select {
		case got, ok := <-w.lines:
			if !ok {
				t.Fatalf("watch ended before printing %q", want)
			}
			if got == want {
				return time.Since(start)
			}
			t.Fatalf("watch printed %q, want %q", got, want)
		case <-deadline:
			t.Fatalf("watch did not print %q within %v", want, d)
		}
	}
}

// seed puts one message in alice's inbox so the replay proves the watch
// is up (its watches are registered before the replay is printed).
func seed(t *testing.T) (root, name string) {
	t.Helper()
	root = t.TempDir()
	name = "1700000000000-aaaaaa.md"
	for _, d := range []string{"alice/inbox", "alice/archive"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "alice/inbox", name), []byte("---\nfrom: bob\n---\nhi\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	return root, name
}

func TestWatchLiveSeesAnotherProcessSend(t *testing.T) {
	root, first := seed(t)
	// A poll interval of ten minutes: only a filesystem event can wake it.
	w := startWatch(t, root, "--with-subject", "--interval", "600000")
	w.expect(t, first+"\t", 10*time.Second)

	send := exec.Command(stBinary(t), "message", "send", "alice", "-m", "hello", "--subject", "live", "--from", "alice")
	send.Env = w.env
	out, err := send.Output()
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	name := strings.TrimSpace(string(out))
	took := w.expect(t, name+"\tlive", time.Second)
	t.Logf("arrival printed %v after the send returned", took)
}

func TestWatchSeesPlainCopyAndRename(t *testing.T) {
	root, first := seed(t)
	w := startWatch(t, root)
	w.expect(t, first, 10*time.Second)

	// Written in place, the way cp does it (no st involved).
	copied := "1700000000001-bbbbbb.md"
	if err := os.WriteFile(filepath.Join(root, "alice/inbox", copied), []byte("copied\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	w.expect(t, copied, 5*time.Second)

	// Renamed in from elsewhere, the way sync tools and mv do it.
	moved := "1700000000002-cccccc.md"
	tmp := filepath.Join(root, "staging")
	if err := os.WriteFile(tmp, []byte("moved\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(root, "alice/inbox", moved)); err != nil {
		t.Fatal(err)
	}
	w.expect(t, moved, 5*time.Second)
}

func TestWatchAllSeesANewAgent(t *testing.T) {
	root, _ := seed(t)
	bobs := "1700000000001-bbbbbb.md"
	os.MkdirAll(filepath.Join(root, "bob/inbox"), 0o777)
	os.WriteFile(filepath.Join(root, "bob/inbox", bobs), nil, 0o666)
	w := startWatch(t, root, "--all")
	w.expect(t, bobs, 10*time.Second)

	// An agent that did not exist when the watch started: its folder,
	// inbox and first message appear in one go, and alice's own inbox
	// stays suppressed.
	os.WriteFile(filepath.Join(root, "alice/inbox/1700000000002-cccccc.md"), nil, 0o666)
	os.MkdirAll(filepath.Join(root, "carol/inbox"), 0o777)
	carols := "1700000000003-dddddd.md"
	os.WriteFile(filepath.Join(root, "carol/inbox", carols), nil, 0o666)
	w.expect(t, carols, 5*time.Second)
}

func TestWatchStopsOnFirstSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			root, first := seed(t)
			w := startWatch(t, root)
			w.expect(t, first, 10*time.Second)
			if err := w.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- w.cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("watch ended with %v after one %v, want exit 0", err, sig)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("watch still running 10s after one %v", sig)
			}
		})
	}
}
