package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFreshNowConfined: now.md is read through the confined tree, so a
// symlink (to a file outside the root or inside it), a FIFO or a folder
// there injects nothing, in session-start and codex-session-start alike.
func TestFreshNowConfined(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	writeFile(t, secret, "CANARY outside the root\n")
	for name, plant := range map[string]func(p string) error{
		"symlink out":    func(p string) error { return os.Symlink(secret, p) },
		"symlink in":     func(p string) error { writeFile(t, p+".real", "in\n"); return os.Symlink("now.md.real", p) },
		"fifo":           func(p string) error { return syscall.Mkfifo(p, 0o666) },
		"folder":         func(p string) error { return os.Mkdir(p, 0o777) },
		"dev zero":       func(p string) error { return os.Symlink("/dev/zero", p) },
		"symlink folder": func(p string) error { return os.Symlink(filepath.Dir(secret), p) },
	} {
		t.Run(name, func(t *testing.T) {
			opt := testOptions(t)
			opt.Now = time.Now
			p := filepath.Join(opt.Root, "alice", "context", "now.md")
			os.MkdirAll(filepath.Dir(p), 0o777)
			if err := plant(p); err != nil {
				t.Fatal(err)
			}
			if _, fresh := freshNow(opt.Root, "alice", "", time.Now(), MaxText); fresh {
				t.Error("freshNow read it")
			}
			r := runSessionStart(opt)
			if strings.Contains(string(r.Stderr), "CANARY") || strings.Contains(string(r.Stderr), "<context") {
				t.Errorf("session-start injected it: %q", r.Stderr)
			}
			r = runCodexSessionStart(opt, client(Codex))
			if strings.Contains(string(r.Stdout), "CANARY") || strings.Contains(string(r.Stdout), "<context") {
				t.Errorf("codex-session-start injected it: %q", r.Stdout)
			}
		})
	}
}

// TestFreshNowBounded: a 1 GiB (sparse) now.md costs a hook two reads of
// its budget: the head and the tail are injected around a cut marker
// that counts the whole file.
func TestFreshNowBounded(t *testing.T) {
	opt := testOptions(t)
	opt.Now = time.Now
	p := filepath.Join(opt.Root, "alice", "context", "now.md")
	writeFile(t, p, "HEAD line\n")
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 30
	f.Truncate(size)
	f.WriteAt([]byte("\nTAIL line\n"), size-11)
	f.Close()
	now, fresh := freshNow(opt.Root, "alice", "", time.Now(), MaxText)
	if !fresh || now.size != size || len(now.data) != 2*MaxText {
		t.Fatalf("freshNow: fresh %v, size %d, read %d", fresh, now.size, len(now.data))
	}
	for _, budget := range []int{MinBudget, MaxText} {
		text := sessionStartText(opt, budget)
		if len(text) > budget || !strings.HasPrefix(text, "<context") || !strings.Contains(text, "HEAD line") ||
			!strings.Contains(text, "TAIL line") || !strings.Contains(text, "of 1073741824 bytes of now.md cut here") {
			t.Errorf("budget %d: %d bytes: %q", budget, len(text), text)
		}
		text, _ = codexStartText(opt, now, true, nil, budget)
		if len(text) > budget || !strings.Contains(text, "HEAD line") || !strings.Contains(text, "TAIL line") {
			t.Errorf("codex, budget %d: %d bytes: %q", budget, len(text), text)
		}
	}
}

// TestPreCompactBigNow: pre-compact leaves a now.md too big to rewrite
// alone (reading none of it) and says so in its log.
func TestPreCompactBigNow(t *testing.T) {
	opt := testOptions(t)
	opt.Now = time.Now
	p := filepath.Join(opt.Root, "alice", "context", "now.md")
	writeFile(t, p, "state\n")
	os.Truncate(p, 1<<30)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(p, old, old)
	os.MkdirAll(filepath.Join(opt.Root, "alice", "inbox"), 0o777)
	runPreCompact(opt)
	if fi, err := os.Stat(p); err != nil || fi.Size() != 1<<30 || !fi.ModTime().Equal(old) {
		t.Errorf("now.md changed: %v %v", fi, err)
	}
	log, _ := os.ReadFile(filepath.Join(opt.Root, "alice", "context", ".flush-errors.log"))
	if !strings.Contains(string(log), "1073741824 bytes") || !strings.Contains(string(log), "not flushed") {
		t.Errorf("log: %q", log)
	}
}
