package gemini

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/e2e/internal/e2ekit"
)

// readmeSteps are the lines of the README's Gemini CLI sh block, each
// without its comment.
func readmeSteps(t *testing.T) []string {
	t.Helper()
	steps, err := e2ekit.ReadmeSteps("Gemini CLI")
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

// follow runs the README's steps in the rig: export sets a variable, st
// runs st, gemini answers the trust dialog (as the comment says) and runs
// one turn with prompt. It returns the client's stderr and the doctor's
// output and exit code.
func (r *rig) follow(steps []string, prompt string) (stderr, doctor string, doctorCode int) {
	r.t.Helper()
	for _, step := range steps {
		words := strings.Fields(step)
		switch {
		case words[0] == "export":
			r.setEnv(words[1])
		case step == "st hooks doctor":
			doctor, doctorCode = r.stExit("hooks", "doctor")
		case words[0] == "st":
			r.st(words[1:]...)
		case step == "gemini":
			r.trust()
			_, stderr = r.gemini(prompt)
		default:
			r.t.Fatalf("README step %q: the test does not know how to follow it", step)
		}
	}
	return stderr, doctor, doctorCode
}

// The README's Gemini CLI section, followed literally twice on a fresh
// home: Gemini CLI starts, runs st's hooks without an error, offers st's
// tools, the model reads st's text once in every request, the user's own
// settings stay, and doctor exits 0.
func TestReadmeGeminiSetupTwice(t *testing.T) {
	t.Parallel()
	r := newRig(t, nil)
	r.stAs("bob", "message", "send", "alice", "-m", "welcome", "--subject", "hello twice")
	steps := readmeSteps(t)
	var stderr, doctor string
	var code int
	for range 2 {
		stderr, doctor, code = r.follow(steps, "hello")
	}
	if code != 0 || strings.Contains(doctor, "FAIL") {
		t.Errorf("doctor after the README twice: exit %d\n%s", code, doctor)
	}
	if errs := hookErrors(stderr); len(errs) > 0 {
		t.Errorf("Gemini CLI reported hook errors:\n%s", strings.Join(errs, "\n"))
	}
	settings := r.read(filepath.Join(r.home, ".gemini", "settings.json"))
	for _, kept := range []string{`"selectedType": "gemini-api-key"`, `"usageStatisticsEnabled": false`} {
		if !strings.Contains(settings, kept) {
			t.Errorf("settings.json lost %s:\n%s", kept, settings)
		}
	}
	if n := strings.Count(settings, `hook gemini-session-start"`); n != 1 {
		t.Errorf("settings.json wires session start %d times", n)
	}
	reqs := r.api.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests for two one-line turns, want 2", len(reqs))
	}
	// The first session announced the message; the second, with nothing
	// new, says nothing of it.
	if n := strings.Count(reqs[0].Raw, "Subject: hello twice"); n != 1 {
		t.Errorf("the message reached the first session's model %d times, want once", n)
	}
	if n := strings.Count(reqs[0].Raw, "## st inbox (1 unread)"); n != 1 {
		t.Errorf("the inbox list reached the model %d times, want once", n)
	}
	tools := strings.Join(reqs[1].ToolNames(), " ")
	if !strings.Contains(tools, "mcp_st_st_msg_send") {
		t.Errorf("Gemini CLI does not offer st's tools: %s", tools)
	}
	side, other := r.api.Side()
	for i, s := range side {
		if n := strings.Count(s.Raw, "Subject: hello twice"); n > 1 {
			t.Errorf("side request %d carries the message %d times", i, n)
		}
	}
	t.Logf("%d side requests, other paths: %v", len(side), other)
}
