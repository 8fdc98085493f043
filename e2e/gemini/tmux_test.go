package gemini

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Gemini CLI fires Notification only in an interactive session, when it
// asks the person to allow a tool: run it in a detached tmux session on a
// private socket, let the model ask for a write_file, and check that st
// logs the agent as waiting on a human, tells the operator, and that the
// payload is as recorded. Skips without tmux.
func TestNotificationWaitsOnHuman(t *testing.T) {
	t.Parallel()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux not on PATH: the interactive Gemini CLI test needs it")
	}
	var r *rig
	r = newRig(t, func(n int, req apiRequest) reply {
		if n > 0 {
			return say("done")
		}
		return call("write_file", map[string]any{"file_path": filepath.Join(r.proj, "a.txt"), "content": "hi\n"})
	})
	r.setEnv("ST_OPERATOR=olivia")
	r.stAs("olivia", "status", "--set", "available")
	r.st("hooks", "install", "--for", "gemini")
	r.trust()
	rec := filepath.Join(r.dir, "notification.json")
	recorder := filepath.Join(r.dir, "record.sh")
	// The client runs the recorder beside st's hook and is still running
	// when the test reads: the payload lands whole, under its name, or
	// not at all.
	r.write(recorder, "#!/bin/sh\ncat > "+rec+".tmp && mv "+rec+".tmp "+rec+"\n")
	if err := os.Chmod(recorder, 0o755); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(r.home, ".gemini", "settings.json")
	s := r.read(settings)
	s = strings.Replace(s, `"Notification": [`, `"Notification": [{"hooks": [{"type": "command", "command": "`+recorder+`"}]},`, 1)
	r.write(settings, s)

	script := "#!/bin/sh\ncd '" + r.proj + "' || exit 1\nexec env -i"
	for _, kv := range r.env {
		if !strings.HasPrefix(kv, "TERM=") && !strings.HasPrefix(kv, "CI=") {
			script += " '" + kv + "'"
		}
	}
	script += " TERM=xterm-256color node '" + geminiJS + "' -i 'write a.txt'\n"
	scriptFile := filepath.Join(r.dir, "gemini.sh")
	r.write(scriptFile, script)
	if err := os.Chmod(scriptFile, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(r.dir, "tmux.sock")
	if out, err := exec.Command(tmux, "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50", scriptFile).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", sock, "kill-server").Run() })
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		// Not "Notification" alone: the test's folder, in the paths the
		// tool lines name, has it too.
		if ev, _ := r.stExit("events"); strings.Contains(ev, "permission_prompt") {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	screen, _ := exec.Command(tmux, "-S", sock, "capture-pane", "-p").CombinedOutput()
	ev := r.st("events")
	if !strings.Contains(ev, "Notification") || !strings.Contains(ev, "permission_prompt") {
		t.Fatalf("st events does not show the agent waiting on a human:\n%s\nscreen:\n%s", ev, screen)
	}
	if inbox := r.stAs("olivia", "message", "ls", "--json"); !strings.Contains(inbox, "agent alice waits") {
		t.Errorf("the operator was not told:\n%s", inbox)
	}
	if _, err := os.Stat(filepath.Join(r.proj, "a.txt")); err == nil {
		t.Errorf("a.txt was written without the person's answer")
	}
	got, err := os.ReadFile(rec)
	for err != nil && time.Now().Before(deadline) { // st's hook may answer before the recorder's
		time.Sleep(100 * time.Millisecond)
		got, err = os.ReadFile(rec)
	}
	if err != nil {
		t.Fatalf("no Notification payload recorded: %v", err)
	}
	want := filepath.Join("testdata", "payloads", "Notification.json")
	if *update {
		norm := strings.NewReplacer(r.home, "/home/user", r.proj, "/home/user/proj").Replace(string(got))
		if err := os.WriteFile(want, []byte(norm), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := strings.Join(keys(t, got), " "), strings.Join(keys(t, old), " "); g != w {
		t.Errorf("Notification: the client sends %s, recorded %s", g, w)
	}
	r.checkLoopback()
}
