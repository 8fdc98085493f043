package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's Codex section, followed literally twice in a fresh home
// (hooks install, init, trust in /hooks, doctor): Codex starts, runs
// st's hooks without an error, offers st's tools, and the model reads
// st's text once; doctor exits 0. The same setup with a store st cannot
// write: doctor exits 1 and says why.
func TestReadmeCodexSetupTwice(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	r.agent("bob")
	r.stAs("bob", "message", "send", "alice", "-m", "welcome", "--subject", "hello twice")
	before := r.read(filepath.Join(r.codexHome, "config.toml"))
	for range 2 {
		r.st("hooks", "install", "--for", "codex")
		r.st("init", "--for", "codex")
	}
	after := r.read(filepath.Join(r.codexHome, "config.toml"))
	if !strings.HasPrefix(after, before) || strings.Count(after, "[mcp_servers.st]") != 1 {
		t.Errorf("config.toml after two setups:\n%s", after)
	}
	r.trustAll()
	doc, code := r.stExit("hooks", "doctor")
	if code != 0 || strings.Contains(doc, "FAIL") || strings.Contains(doc, "problem") {
		t.Errorf("doctor after the README twice: exit %d\n%s", code, doc)
	}
	logs := r.codex("hello", "--strict-config")
	if strings.Contains(logs, "Failed") || strings.Contains(logs, "hook: Stop Blocked") || !strings.Contains(logs, "hook: SessionStart Completed") {
		t.Errorf("Codex's hook lines: %s\n%s", failedLines(logs), logs)
	}
	reqs := r.api.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	if n := strings.Count(reqs[0].Raw, "## st inbox (1 unread)"); n != 1 {
		t.Errorf("the inbox list reached the model %d times, want once", n)
	}
	if n := strings.Count(reqs[0].Raw, "Subject: hello twice"); n != 1 {
		t.Errorf("the message reached the model %d times, want once", n)
	}
	if tools := strings.Join(reqs[0].ToolNames(), " "); !strings.Contains(tools, "mcp__st/st_msg_send") {
		t.Errorf("Codex does not offer st's tools: %s", tools)
	}

	ro := unwritableFolder(t)
	if ro == "" {
		t.Log("no unwritable folder here: the read-only part is skipped")
		return
	}
	r.setEnv("ST_ROOT=" + ro)
	doc, code = r.stExit("hooks", "doctor")
	if code != 1 || !strings.Contains(doc, "FAIL  store: "+ro+" is not writable") || !strings.Contains(doc, "1 problem: store.") {
		t.Errorf("doctor with a store it cannot write: exit %d\n%s", code, doc)
	}
}

// unwritableFolder is a folder this process cannot create files in: a
// read-only one of its own, or /sys when running as root.
func unwritableFolder(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, "x")
	if err != nil {
		return dir
	}
	f.Close()
	if f, err := os.CreateTemp("/sys", "x"); err == nil {
		f.Close()
		os.Remove(f.Name())
		return ""
	}
	return "/sys"
}
