package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/wiring"
)

// A fresh `st hooks install --for codex` does nothing in Codex 0.169
// until the hooks are trusted, and Codex says nothing about it; doctor
// must say so. Once trusted (as /hooks does), SessionStart brings now.md
// and the inbox list into the first model request, and doctor agrees
// with Codex's own view of the trust.
func TestSessionStartNeedsTrustThenBringsContext(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	r.agent("bob")
	r.st("init")
	r.write(filepath.Join(r.root, "alice", "context", "now.md"), "Working on the e2e harness.\nNext: the Stop hook.\n")
	r.stAs("bob", "message", "send", "alice", "-m", "lunch at noon?", "--subject", "lunch")
	out := r.st("hooks", "install", "--for", "codex")
	if !strings.Contains(out, "type /hooks") || !strings.Contains(out, "--dangerously-bypass-hook-trust") {
		t.Errorf("install does not say how to trust the hooks:\n%s", out)
	}

	// Untrusted: Codex skips the hooks without a word.
	list := r.hooksList()
	for _, cmd := range []string{"hook codex-session-start", "hook codex-stop", "hook codex-pre-tool-use"} {
		if got := statusOf(list, cmd); got != "untrusted" {
			t.Errorf("Codex lists %q as %q, want untrusted", cmd, got)
		}
	}
	logs := r.codex("hello")
	if strings.Contains(logs, "hook: SessionStart") {
		t.Errorf("Codex ran an untrusted hook:\n%s", logs)
	}
	if first := r.api.Requests()[0]; first.Contains("## st inbox") {
		t.Errorf("context reached the model from an untrusted hook")
	}
	doc, code := r.stExit("hooks", "doctor")
	if code != 1 || !strings.Contains(doc, "not trusted by Codex") || !strings.Contains(doc, "type /hooks") {
		t.Errorf("doctor on untrusted hooks: exit %d\n%s", code, doc)
	}

	// Trusted as /hooks trusts them: doctor's hash is Codex's.
	r.trustAll()
	doc, code = r.stExit("hooks", "doctor")
	if code != 0 || strings.Contains(doc, "FAIL") || strings.Count(doc, "trusted by Codex") != len(wiring.CodexEntries) {
		t.Errorf("doctor on trusted hooks: exit %d\n%s", code, doc)
	}
	before := len(r.api.Requests())
	logs = r.codex("hello again")
	if !strings.Contains(logs, "hook: SessionStart Completed") {
		t.Errorf("SessionStart did not run once trusted:\n%s", logs)
	}
	first := r.api.Requests()[before]
	for _, want := range []string{
		`<context source="st/context/now.md" agent="alice">`,
		"Working on the e2e harness.\nNext: the Stop hook.\n</context>",
		"## st inbox (1 unread)",
		"bob  Subject: lunch",
	} {
		if !first.Contains(want) {
			t.Errorf("first request lacks %q", want)
		}
	}
}

// A message that arrives while Codex works is announced by codex-stop at
// the end of the turn, once: the turn continues with it, and the next
// Stop finds nothing new.
func TestStopAnnouncesMidTurnArrivalOnce(t *testing.T) {
	t.Parallel()
	//lint:ignore S1021 the closure below refers to the variable, so it is declared first
	var r *rig
	r = newRig(t, func(n int, req apiRequest) reply {
		switch n {
		case 0: // bob writes to alice while alice's turn runs
			return call("exec_command", map[string]any{"login": false,
				"cmd": "ST_AGENT=bob " + stBin + " message send alice -m 'the build is green' --subject build"})
		case 1:
			return say("Sent.")
		case 2:
			return say("Noted the build news.")
		}
		return say("done")
	})
	r.agent("alice")
	r.agent("bob")
	r.st("hooks", "install", "--for", "codex")
	r.trustAll()
	logs := r.codex("check the build")
	reqs := r.api.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3 (tool call, answer, continuation after Stop):\n%s", len(reqs), logs)
	}
	inbox := r.inbox("alice")
	if len(inbox) != 1 {
		t.Fatalf("alice's inbox holds %v, want the one message", inbox)
	}
	const header = "## st inbox (1 new since last check)"
	if reqs[1].Contains(header) {
		t.Errorf("the arrival was announced before the turn ended")
	}
	last := reqs[2]
	if n := strings.Count(last.Raw, "<hook_prompt"); n != 1 {
		t.Errorf("the continuation holds %d hook prompts, want one", n)
	}
	if !last.Contains(header) || !last.Contains("bob  Subject: build") {
		t.Errorf("the continuation lacks the announcement")
	}
	if strings.Count(logs, "hook: Stop Blocked") != 1 || strings.Count(logs, "hook: Stop Completed") != 1 {
		t.Errorf("want Stop to block once, then end quietly:\n%s", logs)
	}
}

// Codex keys trust by position. A user hook trusted after st's group
// must still be trusted, and still run, after `st hooks uninstall`.
func TestUninstallKeepsUserHookTrusted(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.agent("alice")
	r.st("hooks", "install", "--for", "codex")
	path := filepath.Join(r.codexHome, "hooks.json")
	marker := filepath.Join(r.dir, "user-hook-ran")
	user := `{"hooks": [{"type": "command", "command": "cat >/dev/null; echo ran >> ` + marker + `", "timeout": 5}]}`
	data := r.read(path)
	data = strings.Replace(data, `"SessionStart": [`, `"SessionStart": [`+"\n"+`      `+user+`,`, 1)
	// st's group first, the user's after it.
	i := strings.Index(data, user)
	data = data[:i] + data[i+len(user)+1:]
	data = strings.Replace(data, "    ],\n    \"Stop\"", "      ,"+user+"\n    ],\n    \"Stop\"", 1)
	r.write(path, data)
	list := r.hooksList()
	if len(list) != len(wiring.CodexEntries)+1 || statusOf(list, marker) == "" {
		t.Fatalf("setup: Codex lists %+v, want st's hooks and the user's SessionStart after st's", list)
	}
	r.trustAll()

	r.st("hooks", "uninstall", "--for", "codex")
	list = r.hooksList()
	if len(list) != 1 || list[0].TrustStatus != "trusted" {
		t.Fatalf("after uninstall Codex lists %+v, want the user's hook, trusted", list)
	}
	if len(r.hookWarnings) > 0 {
		t.Errorf("Codex warns about the placeholder: %v", r.hookWarnings)
	}
	logs := r.codex("hello")
	if data, err := os.ReadFile(marker); err != nil || string(data) != "ran\n" {
		t.Errorf("the user's hook did not run after uninstall (%v):\n%s", err, logs)
	}
	if strings.Contains(logs, "hooks.json") {
		t.Errorf("Codex complained about hooks.json:\n%s", logs)
	}
}
