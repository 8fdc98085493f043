package mcp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A signal that arrives while a tool call is writing ends the session
// only once the call's writes are done: the file it writes is there,
// no temp file is left, and the status reads offline.
func TestShutdownWaitsForRunningCall(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	started := make(chan struct{}, 1)
	signalled := make(chan struct{})
	cfg := Config{Root: root, Agent: "alice", CallsGrace: time.Minute}
	cfg.CallStarted = func() {
		started <- struct{}{}
		<-signalled
		// The call's write comes after the shutdown has begun.
		time.Sleep(100 * time.Millisecond)
	}
	c, cancel := runPipe(t, cfg)
	c.send(t, initLine, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"st_context_write","arguments":{"body":"mid-write"}}}`)
	<-started
	cancel() // what SIGTERM does in Main
	close(signalled)
	<-c.done
	if data, _ := os.ReadFile(filepath.Join(root, "alice", "context", "now.md")); string(data) != "mid-write\n" {
		t.Errorf("now.md %q: the call was cut off", data)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "alice", "status")); string(data) != "offline\n" {
		t.Errorf("status %q", data)
	}
	filepath.WalkDir(filepath.Join(root, "alice"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") {
			t.Errorf("temp file left: %s", p)
		}
		return nil
	})
}

// A call that outlives the shutdown's wait records nothing after
// offline: no event line, and no bump that would rewrite the status.
func TestNoRecordAfterEnd(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	statusPath := filepath.Join(root, "alice", "status")
	if err := os.WriteFile(statusPath, []byte("offline\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(statusPath, old, old)
	s := newServer(Config{Root: root, Agent: "alice"})
	s.offline()
	os.Chtimes(statusPath, old, old)
	s.recordCall("st_context_write", time.Now(), nil)
	if fi, err := os.Stat(statusPath); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("status rewritten after offline (%v)", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "alice", "events")); len(entries) != 0 {
		t.Errorf("event lines after offline: %v", entries)
	}
}

// Once the shutdown has begun, a new call is refused rather than run.
func TestCallsRefusedOnceClosing(t *testing.T) {
	var c calls
	if !c.begin() {
		t.Fatal("refused before close")
	}
	c.end()
	c.close(time.Minute) // none running: returns at once
	if c.begin() {
		t.Error("accepted after close")
	}
}
