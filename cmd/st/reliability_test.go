package main

// Process-level reliability tests: they build the real binary once and
// run it as separate processes, concurrently, under SIGKILL, on a full or
// read-only filesystem and against names and symlinks that try to leave
// the root. `go test -short` skips them.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/smalltalk-go/st/message"
)

// stEnv is a minimal environment for one store.
func stEnv(root string, extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Dir(root),
		"ST_ROOT=" + root,
		"ST_AGENT=alice",
	}, extra...)
}

type result struct {
	stdout, stderr string
	code           int
}

func runST(t *testing.T, bin string, env []string, stdin []byte, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("st %v: %v", args, err)
	}
	return result{o.String(), e.String(), code}
}

// checkMessage parses a delivered file and returns its body; any partial
// or malformed file is an error.
func checkMessage(data []byte) (string, error) {
	fields, body, ok := message.Parse(string(data))
	if !ok || fields["from"] != "alice" {
		return "", fmt.Errorf("malformed message %q", truncate(data))
	}
	if !strings.HasSuffix(body, "\n") {
		return "", fmt.Errorf("body without final newline (torn?): %q", truncate(data))
	}
	return body, nil
}

func truncate(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// assertOneLineError checks that a failed command said exactly one
// "st: …" line and exited 1.
func assertOneLineError(t *testing.T, r result, contains string) {
	t.Helper()
	if r.code != 1 {
		t.Errorf("exit %d, want 1 (stderr %q)", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "st: ") || strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") {
		t.Errorf("stderr %q is not one \"st: …\" line", r.stderr)
	}
	if !strings.Contains(r.stderr, contains) {
		t.Errorf("stderr %q does not mention %q", r.stderr, contains)
	}
	if r.stdout != "" {
		t.Errorf("stdout %q, want nothing", r.stdout)
	}
}

// walkFiles lists every non-directory under dir (relative paths).
func walkFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

func TestProcessReliability(t *testing.T) {
	if testing.Short() {
		t.Skip("process-level tests skipped in -short mode")
	}
	bin := stBinary(t)
	t.Run("concurrent senders", func(t *testing.T) { testConcurrentSenders(t, bin) })
	t.Run("killed senders", func(t *testing.T) { testKilledSenders(t, bin) })
	t.Run("killed rewriters", func(t *testing.T) { testKilledRewriters(t, bin) })
	t.Run("concurrent appends and sets", func(t *testing.T) { testConcurrentAppends(t, bin) })
	t.Run("full disk", func(t *testing.T) { testFullDisk(t, bin) })
	t.Run("read-only folder", func(t *testing.T) { testReadOnly(t, bin) })
	t.Run("unusable root", func(t *testing.T) { testUnusableRoot(t, bin) })
	t.Run("traversal", func(t *testing.T) { testTraversal(t, bin) })
	t.Run("symlinked inbox", func(t *testing.T) { testSymlinkedInbox(t, bin) })
	t.Run("smalltalk symlink", func(t *testing.T) { testSmalltalkSymlink(t, bin) })
	t.Run("terminal stdin", func(t *testing.T) { testTerminalStdin(t, bin) })
}

// Senders × sends per sender for the concurrency test (16 × 200 = 3200
// processes; about 30 s on 2 CPUs).
const (
	concurrentSenders = 16
	sendsPerSender    = 200
)

// testConcurrentSenders runs many real senders into one inbox while a
// reader polls it: every message lands exactly once and intact, and the
// reader never sees a partial file under a message name.
func testConcurrentSenders(t *testing.T, bin string) {
	root := filepath.Join(t.TempDir(), "store")
	env := stEnv(root)
	inbox := filepath.Join(root, "bob", "inbox")

	stop := make(chan struct{})
	var readerErr atomic.Value
	var reads atomic.Int64
	var readerDone sync.WaitGroup
	readerDone.Add(1)
	go func() {
		defer readerDone.Done()
		checked := map[string]bool{}
		for {
			select {
			case <-stop:
				return
			default:
			}
			entries, _ := os.ReadDir(inbox)
			for _, e := range entries {
				n := e.Name()
				if !message.IsDeliverable(n) {
					continue // temp dot-files are never messages
				}
				if checked[n] {
					continue
				}
				data, err := os.ReadFile(filepath.Join(inbox, n))
				if err != nil {
					readerErr.Store(fmt.Errorf("read %s: %v", n, err))
					return
				}
				if !message.IsCanonical(n) {
					readerErr.Store(fmt.Errorf("non-canonical name listed: %q", n))
					return
				}
				if _, err := checkMessage(data); err != nil {
					readerErr.Store(fmt.Errorf("reader saw %s: %v", n, err))
					return
				}
				checked[n] = true
				reads.Add(1)
			}
		}
	}()

	var wg sync.WaitGroup
	errs := make(chan error, concurrentSenders)
	start := time.Now()
	for p := range concurrentSenders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range sendsPerSender {
				marker := fmt.Sprintf("marker %d %d", p, i)
				cmd := exec.Command(bin, "message", "send", "bob", "-m", marker)
				cmd.Env = env
				out, err := cmd.Output()
				if err != nil || !message.IsCanonical(strings.TrimSuffix(string(out), "\n")) {
					errs <- fmt.Errorf("send %s: %v, stdout %q", marker, err, out)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	readerDone.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err, _ := readerErr.Load().(error); err != nil {
		t.Error(err)
	}
	t.Logf("%d sends in %v; the reader checked %d files while they arrived", concurrentSenders*sendsPerSender, time.Since(start), reads.Load())

	entries, err := os.ReadDir(inbox)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range entries {
		n := e.Name()
		if !message.IsCanonical(n) {
			t.Errorf("unexpected entry %q in the inbox", n)
			continue
		}
		data, err := os.ReadFile(filepath.Join(inbox, n))
		if err != nil {
			t.Fatal(err)
		}
		body, err := checkMessage(data)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		seen[strings.TrimSuffix(body, "\n")]++
	}
	if got, want := len(entries), concurrentSenders*sendsPerSender; got != want {
		t.Errorf("inbox holds %d entries, want %d", got, want)
	}
	for p := range concurrentSenders {
		for i := range sendsPerSender {
			if m := fmt.Sprintf("marker %d %d", p, i); seen[m] != 1 {
				t.Errorf("%q delivered %d times", m, seen[m])
			}
		}
	}
}

// testKilledSenders SIGKILLs senders of large bodies at random moments:
// no partial message may ever be visible under a message name.
func testKilledSenders(t *testing.T, bin string) {
	root := filepath.Join(t.TempDir(), "store")
	env := stEnv(root)
	inbox := filepath.Join(root, "bob", "inbox")
	body := bytes.Repeat([]byte("0123456789abcdef"), 256<<10/16) // 256 KiB
	body = append(body, "END\n"...)
	// Kill uniformly within 1.5× a normal send's duration, so that kills
	// land before, during and after the write.
	var span time.Duration
	for range 3 {
		begin := time.Now()
		if r := runST(t, bin, env, body, "message", "send", "carol"); r.code != 0 {
			t.Fatalf("send: %q", r.stderr)
		}
		span += time.Since(begin)
	}
	span = span / 3 * 3 / 2
	const attempts = 120
	var killed, finished atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for range attempts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			cmd := exec.Command(bin, "message", "send", "bob")
			cmd.Env = env
			cmd.Stdin = bytes.NewReader(body)
			if err := cmd.Start(); err != nil {
				t.Error(err)
				return
			}
			time.Sleep(time.Duration(rand.Int64N(int64(span))))
			if cmd.Process.Signal(syscall.SIGKILL) == nil {
				killed.Add(1)
			}
			if cmd.Wait() == nil {
				finished.Add(1)
			}
		}()
	}
	wg.Wait()
	entries, _ := os.ReadDir(inbox)
	messages, temps := 0, 0
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") {
			temps++
			continue
		}
		if !message.IsCanonical(n) {
			t.Errorf("unexpected entry %q", n)
			continue
		}
		messages++
		data, err := os.ReadFile(filepath.Join(inbox, n))
		if err != nil {
			t.Fatal(err)
		}
		got, err := checkMessage(data)
		if err != nil || got != string(body) {
			t.Errorf("%s: torn message (%d bytes, %v)", n, len(data), err)
		}
	}
	if int64(messages) < finished.Load() {
		t.Errorf("%d sends exited 0 but only %d messages exist", finished.Load(), messages)
	}
	t.Logf("kills within %v: %d attempts, %d signalled, %d completed: %d whole messages, %d temp dot-files, 0 torn", span, attempts, killed.Load(), finished.Load(), messages, temps)
}

// mountTmpfs mounts a tmpfs of size at dir, or skips the test.
func mountTmpfs(t *testing.T, dir, opts string) {
	t.Helper()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		t.Skipf("cannot mount a tmpfs (%v): needs root with CAP_SYS_ADMIN", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
}

// testFullDisk sends into a 256 KiB tmpfs until it is full: the failing
// send says one line and exits 1, and no partial message is left.
func testFullDisk(t *testing.T, bin string) {
	mnt := filepath.Join(t.TempDir(), "mnt")
	os.Mkdir(mnt, 0o777)
	mountTmpfs(t, mnt, "size=256k")
	root := filepath.Join(mnt, "store")
	env := stEnv(root)
	body := bytes.Repeat([]byte("x"), 20<<10)
	body = append(body, '\n')
	var failure result
	sent := 0
	for i := 0; i < 100; i++ {
		r := runST(t, bin, env, body, "message", "send", "bob")
		if r.code != 0 {
			failure = r
			break
		}
		sent++
	}
	if failure.code == 0 {
		t.Fatalf("100 sends of 20 KiB fit into 256 KiB")
	}
	assertOneLineError(t, failure, "no space left on device")
	inbox := filepath.Join(root, "bob", "inbox")
	entries, _ := os.ReadDir(inbox)
	if len(entries) != sent {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("inbox holds %v after %d good sends (a partial or temp file left?)", names, sent)
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(inbox, e.Name()))
		if b, err := checkMessage(data); err != nil || b != string(body) {
			t.Errorf("%s: partial message (%d bytes)", e.Name(), len(data))
		}
	}
	// Other writers fail the same way and leave nothing half-written.
	r := runST(t, bin, env, bytes.Repeat([]byte("y"), 64<<10), "context", "write")
	if r.code == 0 {
		t.Log("context write still fit")
	} else {
		assertOneLineError(t, r, "no space left on device")
		if files := walkFiles(t, filepath.Join(root, "alice")); len(files) != 0 {
			t.Errorf("context write left %v", files)
		}
	}
	t.Logf("%d sends fit; then: %s", sent, strings.TrimSpace(failure.stderr))
}

// readOnlyDir returns a folder nothing can be written into: a 0555 folder
// for ordinary users, a read-only tmpfs for root.
func readOnlyDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(dir, 0o777)
	if os.Geteuid() != 0 {
		os.Chmod(dir, 0o555)
		t.Cleanup(func() { os.Chmod(dir, 0o777) })
		return dir
	}
	mountTmpfs(t, dir, "size=64k")
	// Pre-create the agents so that only the final write fails.
	for _, d := range []string{"store/alice/inbox", "store/alice/archive", "store/alice/context", "store/bob/inbox"} {
		os.MkdirAll(filepath.Join(dir, d), 0o777)
	}
	if err := unix.Mount("", dir, "", unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot remount read-only: %v", err)
	}
	return dir
}

// testReadOnly: writes into a read-only store fail with one line, exit 1,
// and leave nothing behind.
func testReadOnly(t *testing.T, bin string) {
	dir := readOnlyDir(t)
	root := filepath.Join(dir, "store")
	env := stEnv(root)
	before := walkFiles(t, dir)
	cases := []struct {
		stdin []byte
		args  []string
	}{
		{nil, []string{"message", "send", "bob", "-m", "hi"}},
		{nil, []string{"status", "--set", "busy"}},
		{[]byte("now\n"), []string{"context", "write"}},
		{nil, []string{"context", "append", "--decision", "d", "--why", "w"}},
	}
	for _, c := range cases {
		r := runST(t, bin, env, c.stdin, c.args...)
		if os.Geteuid() == 0 {
			assertOneLineError(t, r, "read-only file system")
		} else {
			assertOneLineError(t, r, "permission denied")
		}
	}
	if after := walkFiles(t, dir); len(after) != len(before) {
		t.Errorf("files appeared in the read-only store: %v", after)
	}
	// Reading still works.
	if r := runST(t, bin, env, nil, "context", "read"); r.code != 0 {
		t.Errorf("context read on a read-only store: %d %q", r.code, r.stderr)
	}
}

// testUnusableRoot: a root that cannot exist (a path under a regular
// file) gives one clear line and exit 1 for every verb.
func testUnusableRoot(t *testing.T, bin string) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o666)
	env := stEnv(filepath.Join(file, "store"))
	for _, args := range [][]string{
		{"message", "send", "bob", "-m", "hi"},
		{"status"},
		{"status", "--set", "busy"},
		{"context", "read"},
		{"context", "append", "--decision", "d", "--why", "w"},
	} {
		r := runST(t, bin, env, nil, args...)
		assertOneLineError(t, r, "not a directory")
	}
	r := runST(t, bin, env, []byte("x"), "context", "write")
	assertOneLineError(t, r, "not a directory")
	// A missing root is created by a write, and a read of an explicit
	// agent reports the missing folder.
	root := filepath.Join(dir, "missing", "store")
	if r := runST(t, bin, stEnv(root), nil, "context", "read", "bob"); r.code != 1 || !strings.HasPrefix(r.stderr, "st: agent folder missing for bob") {
		t.Errorf("context read bob on a missing root: %d %q", r.code, r.stderr)
	}
	if _, err := os.Stat(root); err == nil {
		t.Error("a failed read created the root")
	}
	if r := runST(t, bin, stEnv(root), nil, "message", "send", "bob", "-m", "hi"); r.code != 0 {
		t.Errorf("send into a missing root: %d %q", r.code, r.stderr)
	}
}

// testTraversal: names that could leave the root are refused and nothing
// is written anywhere.
func testTraversal(t *testing.T, bin string) {
	dir := t.TempDir()
	root := filepath.Join(dir, "a", "store")
	env := stEnv(root)
	for _, name := range []string{"../x", "../../x", "/etc", "/tmp/x", "a/b", "..", ".", "x/..", `a\b`, "bob/../alice"} {
		for _, args := range [][]string{
			{"message", "send", name, "-m", "hi"},
			{"message", "send", "bob", "-m", "hi", "--from", name},
			{"status", name, "--set", "busy"},
			{"status", name},
			{"context", "append", name, "--decision", "d", "--why", "w"},
			{"context", "read", name},
		} {
			r := runST(t, bin, env, nil, args...)
			assertOneLineError(t, r, "invalid agent name: "+name)
		}
		r := runST(t, bin, env, []byte("x"), "context", "write", name)
		assertOneLineError(t, r, "invalid agent name: "+name)
		r = runST(t, bin, stEnv(root, "ST_AGENT="+name), nil, "status", "--set", "busy")
		assertOneLineError(t, r, "invalid agent name: "+name)
	}
	if files := walkFiles(t, dir); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
	if _, err := os.Stat(root); err == nil {
		t.Error("the root was created by refused commands")
	}
	// NUL cannot be passed through argv or the environment; ValidAgent's
	// table test and FuzzValidAgent cover it.
}

// testSymlinkedInbox: a recipient folder or inbox that is a symlink out
// of the root is refused for writes, and nothing lands outside.
func testSymlinkedInbox(t *testing.T, bin string) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	outside := filepath.Join(dir, "outside")
	os.MkdirAll(outside, 0o777)
	os.MkdirAll(filepath.Join(root, "bob"), 0o777)
	os.Symlink(outside, filepath.Join(root, "bob", "inbox"))
	os.Symlink(outside, filepath.Join(root, "carol"))
	os.MkdirAll(filepath.Join(root, "dave", "inbox"), 0o777)
	os.MkdirAll(filepath.Join(root, "dave", "archive"), 0o777)
	os.Symlink(outside, filepath.Join(root, "dave", "context"))
	os.Symlink(filepath.Join(outside, "status"), filepath.Join(root, "dave", "status"))
	env := stEnv(root)

	for _, to := range []string{"bob", "carol"} {
		r := runST(t, bin, env, nil, "message", "send", to, "-m", "hi")
		assertOneLineError(t, r, "escapes")
	}
	r := runST(t, bin, env, []byte("x"), "context", "write", "dave")
	assertOneLineError(t, r, "escapes")
	r = runST(t, bin, env, nil, "context", "append", "dave", "--decision", "d", "--why", "w")
	assertOneLineError(t, r, "escapes")
	// status --set replaces the symlink itself, never the file it points to.
	if r := runST(t, bin, env, nil, "status", "dave", "--set", "busy"); r.code != 0 {
		t.Errorf("status dave --set busy: %d %q", r.code, r.stderr)
	}
	if files := walkFiles(t, outside); len(files) != 0 {
		t.Errorf("written outside the root: %v", files)
	}
	// Reads through escaping symlinks see nothing.
	os.WriteFile(filepath.Join(outside, "now.md"), []byte("secret\n"), 0o666)
	if r := runST(t, bin, env, nil, "context", "read", "dave"); r.stdout != "" {
		t.Errorf("context read followed a symlink out of the root: %q", r.stdout)
	}
}

// testSmalltalkSymlink runs the binary through a symlink named smalltalk.
func testSmalltalkSymlink(t *testing.T, bin string) {
	link := filepath.Join(t.TempDir(), "smalltalk")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	env := stEnv(filepath.Join(t.TempDir(), "store"))
	r := runST(t, link, env, nil)
	if r.code != 2 || !strings.HasPrefix(r.stderr, "usage: smalltalk <subcommand>") {
		t.Errorf("smalltalk: %d %q", r.code, r.stderr)
	}
	r = runST(t, link, env, nil, "message", "send", "BAD", "-m", "x")
	if r.code != 1 || r.stderr != "smalltalk: invalid agent name: BAD\n" {
		t.Errorf("smalltalk send BAD: %d %q", r.code, r.stderr)
	}
	r = runST(t, link, append(env, "_ST_INVOKED_AS=st"), nil, "message", "send", "BAD", "-m", "x")
	if r.stderr != "st: invalid agent name: BAD\n" {
		t.Errorf("_ST_INVOKED_AS=st through the link: %q", r.stderr)
	}
}

// testTerminalStdin gives send a real pseudo-terminal as stdin: it must
// refuse at once instead of waiting for input.
func testTerminalStdin(t *testing.T, bin string) {
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	defer ptm.Close()
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	defer pts.Close()
	root := filepath.Join(t.TempDir(), "store")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "message", "send", "bob")
	cmd.Env = stEnv(root, "ST_STDIN_TIMEOUT_MS=60000")
	cmd.Stdin = pts
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatal("send waited on a terminal stdin")
	}
	want := "st: no message body — pass `-m <body>` or pipe the body via stdin (e.g. `echo hi | st message send bob`)\n"
	if err == nil || stderr.String() != want {
		t.Errorf("terminal stdin: %v, stderr %q", err, stderr.String())
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	if _, err := os.Stat(filepath.Join(root, "bob")); err == nil {
		t.Error("bob's inbox was created")
	}
	// With -m the terminal is never read.
	cmd = exec.Command(bin, "message", "send", "bob", "-m", "hi")
	cmd.Env = stEnv(root)
	cmd.Stdin = pts
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("-m with a terminal stdin: %v %s", err, out)
	}
}

// testKilledRewriters SIGKILLs `context write` and `status --set` at
// random moments: now.md and status always hold one whole version.
func testKilledRewriters(t *testing.T, bin string) {
	root := filepath.Join(t.TempDir(), "store")
	env := stEnv(root)
	versions := map[string]bool{}
	bodies := make([][]byte, 4)
	for i := range bodies {
		bodies[i] = append(bytes.Repeat([]byte{byte('a' + i)}, 256<<10), '\n')
		versions[string(bodies[i])] = true
	}
	states := []string{"busy", "away", "dnd", "available"}
	var span time.Duration
	for range 3 {
		begin := time.Now()
		runST(t, bin, env, bodies[0], "context", "write")
		span += time.Since(begin)
	}
	span = span / 3 * 3 / 2
	now := filepath.Join(root, "alice", "context", "now.md")
	statusFile := filepath.Join(root, "alice", "status")
	for i := range 80 {
		w := exec.Command(bin, "context", "write")
		w.Env, w.Stdin = env, bytes.NewReader(bodies[i%len(bodies)])
		s := exec.Command(bin, "status", "--set", states[i%len(states)])
		s.Env = env
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(span))))
		w.Process.Signal(syscall.SIGKILL)
		s.Process.Signal(syscall.SIGKILL)
		w.Wait()
		s.Wait()
		if data, err := os.ReadFile(now); err != nil || !versions[string(data)] {
			t.Fatalf("now.md after kill %d: %d bytes, %v", i, len(data), err)
		}
		if data, err := os.ReadFile(statusFile); err == nil && !slices.Contains(states, strings.TrimSuffix(string(data), "\n")) {
			t.Fatalf("status after kill %d: %q", i, data)
		}
	}
}

// testConcurrentAppends runs decision appends and status sets from many
// processes at once: every entry lands once, the status is one whole state.
func testConcurrentAppends(t *testing.T, bin string) {
	root := filepath.Join(t.TempDir(), "store")
	env := stEnv(root)
	const procs, each = 8, 25
	var wg sync.WaitGroup
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				cmd := exec.Command(bin, "context", "append", "--decision", fmt.Sprintf("d %d %d", p, i), "--why", "w")
				cmd.Env = env
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("append: %v %s", err, out)
				}
				cmd = exec.Command(bin, "status", "--set", []string{"busy", "away"}[i%2])
				cmd.Env = env
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("status: %v %s", err, out)
				}
			}
		}()
	}
	wg.Wait()
	r := runST(t, bin, env, nil, "context", "read", "--decisions")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != procs*each {
		t.Errorf("%d decision lines, want %d", len(lines), procs*each)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		seen[l[strings.Index(l, "Z ")+2:]] = true
	}
	for p := range procs {
		for i := range each {
			if want := fmt.Sprintf("d %d %d. why: w.", p, i); !seen[want] {
				t.Errorf("missing %q", want)
			}
		}
	}
	if files := walkFiles(t, filepath.Join(root, "alice")); len(files) != procs*each+1 {
		t.Errorf("%d files under alice/, want %d entries + status (temp left?)", len(files), procs*each+1)
	}
	data, _ := os.ReadFile(filepath.Join(root, "alice", "status"))
	if s := string(data); s != "busy\n" && s != "away\n" {
		t.Errorf("status = %q", s)
	}
}
