package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/glustertest"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/watch"
)

// These tests run the real st binary against one store on a GlusterFS
// volume mounted several times, each mount standing in for a host
// (internal/glustertest; they skip, saying why, where it cannot run):
// concurrent senders, replaced files under readers, the reservation race,
// archive races, kill -9 and the watch.

// sharedStore returns the store's root under each of n mounts, and an
// environment maker for a process on mount i acting as agent.
func sharedStore(t *testing.T, n int) (roots []string, env func(i int, agent string) []string) {
	t.Helper()
	s := glustertest.ForTest(t, n)
	for _, d := range s.Dirs {
		roots = append(roots, filepath.Join(d, "store"))
	}
	if err := os.MkdirAll(roots[0], 0o777); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir() // home marks and lock files stay on the local disk
	return roots, func(i int, agent string) []string {
		return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + home,
			"ST_ROOT=" + roots[i], "ST_AGENT=" + agent, "ST_HOST=host" + fmt.Sprint(i)}
	}
}

// runIn runs st with env and stdin and returns stdout, stderr and the
// exit code.
func runIn(env []string, stdin []byte, args ...string) (string, string, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, buildSTPath(), args...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if x, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), x.ExitCode(), nil
	}
	return o.String(), e.String(), 0, err
}

func buildSTPath() string { bin, _ := buildST(); return bin }

// sumBody is a body that proves itself whole: text and its checksum.
func sumBody(text string) string {
	s := sha256.Sum256([]byte(text))
	return text + "\nsha256 " + hex.EncodeToString(s[:]) + "\n"
}

func bodyWhole(body string) bool {
	i := strings.LastIndex(strings.TrimSuffix(body, "\n"), "\nsha256 ")
	return i >= 0 && sumBody(body[:i]) == body
}

// TestSharedSendsAcrossMounts: senders on every mount deliver to one
// inbox at once; every acknowledged message is there once, whole, and
// nothing else is.
func TestSharedSendsAcrossMounts(t *testing.T) {
	stBinary(t)
	const mounts, procs, sends = 4, 2, 12
	roots, env := sharedStore(t, mounts)
	var mu sync.Mutex
	acked := map[string]string{} // name -> body
	var wg sync.WaitGroup
	for i := range mounts {
		for p := range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range sends {
					body := sumBody(fmt.Sprintf("mount %d proc %d send %d %s", i, p, k, strings.Repeat("x", rand.IntN(20000))))
					out, errOut, code, err := runIn(env(i, "alice"), []byte(body), "message", "send", "bob", "-q", "--subject", "s")
					name := strings.TrimSpace(out)
					mu.Lock()
					if err != nil || code != 0 || !message.IsCanonical(name) {
						t.Errorf("send on mount %d: %v, exit %d, stdout %q, stderr %q", i, err, code, out, errOut)
					} else if _, dup := acked[name]; dup {
						t.Errorf("%s acknowledged twice", name)
					} else {
						acked[name] = body
					}
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	// Read back through a mount no one sent from last.
	inbox := filepath.Join(roots[mounts-1], "bob", "inbox")
	ents, err := os.ReadDir(inbox)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(inbox, e.Name()))
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		want, ok := acked[e.Name()]
		_, body, parsed := message.Parse(string(data))
		switch {
		case !ok:
			t.Errorf("%s: in the inbox but never acknowledged (or a stray temp file)", e.Name())
		case !parsed || body != want:
			t.Errorf("%s: torn or replaced: %d bytes", e.Name(), len(data))
		default:
			found++
		}
	}
	if want := mounts * procs * sends; found != want || len(acked) != want {
		t.Errorf("%d acknowledged, %d found whole, want %d: lost or doubled", len(acked), found, want)
	}
	t.Logf("%d messages from %d mounts: 0 lost, 0 replaced, 0 doubled", found, mounts)
}

// TestSharedRewritesNeverTorn: one mount rewrites now.md and the status
// over and over while another reads them through st; every read is a
// whole version.
func TestSharedRewritesNeverTorn(t *testing.T) {
	stBinary(t)
	roots, env := sharedStore(t, 2)
	if err := os.MkdirAll(filepath.Join(roots[0], "alice", "context"), 0o777); err != nil {
		t.Fatal(err)
	}
	if _, e, code, err := runIn(env(0, "alice"), []byte(sumBody("first")), "context", "write"); err != nil || code != 0 {
		t.Fatalf("first write: %v %d %s", err, code, e)
	}
	if _, e, code, err := runIn(env(0, "alice"), nil, "status", "--set", "busy"); err != nil || code != 0 {
		t.Fatalf("first status: %v %d %s", err, code, e)
	}
	stop := make(chan struct{})
	var writes int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		states := []string{"busy", "available", "away", "dnd"}
		for writes = 0; ; writes++ {
			select {
			case <-stop:
				return
			default:
			}
			body := sumBody(fmt.Sprintf("version %d %s", writes, strings.Repeat(fmt.Sprint(writes%10), 50000+rand.IntN(100000))))
			if _, e, code, err := runIn(env(0, "alice"), []byte(body), "context", "write"); err != nil || code != 0 {
				t.Errorf("context write: %v %d %s", err, code, e)
			}
			if _, e, code, err := runIn(env(0, "alice"), nil, "status", "--set", states[writes%4]); err != nil || code != 0 {
				t.Errorf("status --set: %v %d %s", err, code, e)
			}
		}
	}()
	reads, torn := 0, 0
	deadline := time.Now().Add(4 * time.Second)
	for time.Now().Before(deadline) {
		out, e, code, err := runIn(env(1, "bob"), nil, "context", "read", "alice")
		if err != nil || code != 0 {
			t.Errorf("context read on mount 1: %v, exit %d, %s", err, code, e)
		} else if !bodyWhole(out) {
			torn++
			t.Errorf("torn now.md read through mount 1: %d bytes", len(out))
		}
		out, e, code, err = runIn(env(1, "bob"), nil, "status", "alice")
		if err != nil || code != 0 || !slices.Contains([]string{"busy", "available", "away", "dnd"}, strings.TrimSpace(out)) {
			t.Errorf("status on mount 1: %q, exit %d, %v, %s", out, code, err, e)
		}
		reads++
	}
	close(stop)
	wg.Wait()
	t.Logf("%d rewrites on mount 0, %d reads of each on mount 1, %d torn", writes, reads, torn)
}

// TestSharedReservationRace: an agent on every mount asks for the same
// file at once, round after round; each round grants exactly one.
func TestSharedReservationRace(t *testing.T) {
	stBinary(t)
	const mounts, rounds = 4, 10
	roots, env := sharedStore(t, mounts)
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for r := range rounds {
		granted := make([]bool, mounts)
		var wg sync.WaitGroup
		for i := range mounts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				e := env(i, fmt.Sprintf("racer%d", i))
				e[3] = "ST_ROOT=" + filepath.Join(roots[i], fmt.Sprint(r))
				cmd := exec.Command(buildSTPath(), "reserve", "src/a.go")
				cmd.Env, cmd.Dir = e, repo
				out, err := cmd.CombinedOutput()
				switch {
				case err == nil:
					granted[i] = true
				case !strings.Contains(string(out), "holds src/a.go"):
					t.Errorf("round %d, mount %d: %v: %s", r, i, err, out)
				}
			}()
		}
		wg.Wait()
		if n := len(slices.DeleteFunc(granted, func(g bool) bool { return !g })); n != 1 {
			t.Fatalf("round %d: %d grants across %d mounts, want exactly 1", r, n, mounts)
		}
	}
}

// TestSharedArchiveRace: the owner archives each message from every
// mount at once; each ends up archived once, its inbox copy gone.
func TestSharedArchiveRace(t *testing.T) {
	stBinary(t)
	const mounts, msgs = 4, 12
	roots, env := sharedStore(t, mounts)
	var names []string
	for k := range msgs {
		out, e, code, err := runIn(env(k%mounts, "bob"), nil, "message", "send", "alice", "-q", "-m", sumBody(fmt.Sprint(k)))
		if err != nil || code != 0 {
			t.Fatalf("send: %v %d %s", err, code, e)
		}
		names = append(names, strings.TrimSpace(out))
	}
	for _, name := range names {
		var wg sync.WaitGroup
		for i := range mounts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, e, code, err := runIn(env(i, "alice"), nil, "message", "archive", name)
				if err != nil || code != 0 || !strings.HasPrefix(e, "archived") {
					t.Errorf("archive %s on mount %d: %v, exit %d, %q %q", name, i, err, code, out, e)
				}
			}()
		}
		wg.Wait()
	}
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(roots[1], "alice", "inbox", name)); !os.IsNotExist(err) {
			t.Errorf("inbox/%s still there (%v)", name, err)
		}
		data, err := os.ReadFile(filepath.Join(roots[2], "alice", "archive", name))
		if _, body, ok := message.Parse(string(data)); err != nil || !ok || !bodyWhole(body) {
			t.Errorf("archive/%s: %v, whole %v", name, err, ok)
		}
	}
}

// TestSharedKillMidWrite: senders and rewriters on every mount are
// killed (SIGKILL) at random moments; every message acknowledged is
// there whole, no message file is torn, and now.md is always a whole
// version.
func TestSharedKillMidWrite(t *testing.T) {
	stBinary(t)
	const mounts, each = 3, 30
	roots, env := sharedStore(t, mounts)
	if err := os.MkdirAll(filepath.Join(roots[0], "alice", "context"), 0o777); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var acked []string
	killed := 0
	var wg sync.WaitGroup
	for i := range mounts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range each {
				args := []string{"message", "send", "bob", "-q"}
				if k%2 == 1 {
					args = []string{"context", "write"}
				}
				cmd := exec.Command(buildSTPath(), args...)
				cmd.Env = env(i, "alice")
				cmd.Stdin = strings.NewReader(sumBody(fmt.Sprintf("m%d k%d %s", i, k, strings.Repeat("y", 30000+rand.IntN(60000)))))
				var o bytes.Buffer
				cmd.Stdout = &o
				if err := cmd.Start(); err != nil {
					t.Error(err)
					return
				}
				timer := time.AfterFunc(time.Duration(rand.IntN(150))*time.Millisecond, func() { _ = cmd.Process.Signal(syscall.SIGKILL) })
				err := cmd.Wait()
				timer.Stop()
				mu.Lock()
				if err == nil && k%2 == 0 {
					acked = append(acked, strings.TrimSpace(o.String()))
				} else if err != nil {
					killed++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	inbox := filepath.Join(roots[1], "bob", "inbox")
	ents, _ := os.ReadDir(inbox)
	present := map[string]bool{}
	temps := 0
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			temps++
			continue
		}
		present[e.Name()] = true
		data, err := os.ReadFile(filepath.Join(inbox, e.Name()))
		if _, body, ok := message.Parse(string(data)); err != nil || !ok || !bodyWhole(body) {
			t.Errorf("%s: torn (%d bytes, %v)", e.Name(), len(data), err)
		}
	}
	for _, name := range acked {
		if !present[name] {
			t.Errorf("%s acknowledged but lost", name)
		}
	}
	if data, err := os.ReadFile(filepath.Join(roots[2], "alice", "context", "now.md")); err == nil && !bodyWhole(string(data)) {
		t.Errorf("now.md torn after the kills: %d bytes", len(data))
	}
	t.Logf("%d processes, %d killed, %d messages acknowledged, %d delivered, %d temp files left for the next writer to sweep",
		mounts*each, killed, len(acked), len(present), temps)
}

// TestSharedWatchSeesAnotherMount: `st watch` on one mount, with an
// hour's --interval, prints a message sent through another mount, whose
// arrival inotify never reports, within watch.SharedPoll and the
// filesystem's own delay.
func TestSharedWatchSeesAnotherMount(t *testing.T) {
	stBinary(t)
	roots, env := sharedStore(t, 2)
	first, e, code, err := runIn(env(0, "bob"), nil, "message", "send", "alice", "-q", "-m", "first")
	if err != nil || code != 0 {
		t.Fatalf("send: %v %d %s", err, code, e)
	}
	w := startWatch(t, roots[1], "--interval", "3600000")
	w.expect(t, strings.TrimSpace(first), 10*time.Second)
	out, e, code, err := runIn(env(0, "bob"), nil, "message", "send", "alice", "-q", "-m", "second")
	if err != nil || code != 0 {
		t.Fatalf("send: %v %d %s", err, code, e)
	}
	took := w.expect(t, strings.TrimSpace(out), watch.SharedPoll+3*time.Second)
	t.Logf("a send on mount 0 printed by st watch on mount 1 after %s", took.Round(time.Millisecond))
}

// TestSharedMCPChannelSeesAnotherMount: `st mcp --channel` on one mount,
// with its default backstop (15 s), pushes a message sent through
// another mount within watch.SharedPoll and the filesystem's own delay.
func TestSharedMCPChannelSeesAnotherMount(t *testing.T) {
	stBinary(t)
	roots, env := sharedStore(t, 2)
	mcpMkAgent(t, roots[0], "alice")
	p := startMCP(t, roots[1], append(env(1, "alice"), "GORACE=atexit_sleep_ms=0"), "--channel")
	// The channel is up once the server answers a call.
	p.ok("st_msg_send", map[string]any{"to": "bob", "body": "x"})
	out, e, code, err := runIn(env(0, "bob"), nil, "message", "send", "alice", "-q", "-m", "across")
	if err != nil || code != 0 {
		t.Fatalf("send: %v %d %s", err, code, e)
	}
	start := time.Now()
	f, ok := p.frame(watch.SharedPoll + 3*time.Second)
	if !ok || !strings.Contains(f.raw, `"messageFilename":"`+strings.TrimSpace(out)+`"`) {
		t.Fatalf("no channel frame for %s within %s (got %q)", strings.TrimSpace(out), watch.SharedPoll+3*time.Second, f.raw)
	}
	t.Logf("a send on mount 0 pushed by st mcp --channel on mount 1 after %s", time.Since(start).Round(time.Millisecond))
}
