package claudecode

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// hookTrouble matches what Claude Code writes when it rejects or fails a
// hook: every st hook must be accepted.
var hookTrouble = regexp.MustCompile(`(?i:hook error)|Failed with non-blocking status|\[ERROR\] "?Hook |JSON validation failed|(?i:invalid hook output)`)

// retryWake is in the one deliberate exit 2 of st's hooks: stop-failure
// --retry waking the session (asyncRewake). Claude Code has no other way
// to wake an idle session from a hook, and reports that exit as an
// "error" outcome although it acts on it; hookErrors lets only this one
// through.
const retryWake = "Retry the failed turn now"

// debugError matches the debug log's error lines that concern a hook
// or st's MCP server (the log has unrelated ones, e.g. a config file
// missing in the scratch HOME, whose path may hold a test's name such
// as TestToolHooks: "hook" counts only as a word).
var debugError = regexp.MustCompile(`\[ERROR\].*(\b(?i:hooks?)\b|MCP server "st")`)

// hookRefusal marks the tool result of a PreToolUse deny (a reservation,
// a deny rule): Claude Code 2.1 gives the model "PreToolUse:<tool> hook
// error: <reason>" for it, a refusal that worked, not a failed hook.
const hookRefusal = `"permission_decision":{"decision":"reject","source":"hook","reason_type":"hook"}`

// hookErrors lists every hook the client reports as failed: hook
// responses whose outcome is not success and hook error notices to the
// user (stop-hook-error) in the stream, and the debug log's hook error
// lines and [ERROR] lines about hooks or st's MCP server.
func (r *run) hookErrors() []string {
	var out []string
	for _, ev := range r.events {
		if ev["type"] == "system" && ev["subtype"] == "hook_response" && ev["outcome"] != "success" {
			if s, _ := ev["stderr"].(string); ev["hook_event"] == "StopFailure" && ev["exit_code"] == 2.0 && strings.Contains(s, retryWake) {
				continue
			}
			out = append(out, fmt.Sprintf("stream: %v %v exit %v: %.300v", ev["hook_name"], ev["outcome"], ev["exit_code"], ev["output"]))
		}
		if key, _ := ev["key"].(string); ev["type"] == "system" && ev["subtype"] == "notification" && strings.Contains(key, "hook") {
			out = append(out, fmt.Sprintf("stream: notification %s: %v", key, ev["text"]))
		}
	}
	for _, line := range strings.Split(r.debug, "\n") {
		if strings.Contains(line, "Hook StopFailure:") && strings.Contains(line, "status code 2") && strings.Contains(line, retryWake) {
			continue
		}
		if hookTrouble.MatchString(line) || debugError.MatchString(line) {
			out = append(out, "debug: "+line)
		}
	}
	for _, line := range strings.Split(r.stdout+r.stderr, "\n") {
		if strings.Contains(line, hookRefusal) {
			continue // a deliberate PreToolUse deny, which the client words as a "hook error"
		}
		if strings.Contains(line, "hook error") || strings.Contains(line, "Failed with non-blocking status") {
			out = append(out, "output: "+line)
		}
	}
	return out
}

// checkClean fails t when any hook failed or anything tried to leave
// loopback.
func (p *project) checkClean(r *run) {
	p.t.Helper()
	if errs := r.hookErrors(); len(errs) > 0 {
		p.t.Errorf("Claude Code reported hook failures:\n%s", strings.Join(errs, "\n"))
	}
	if hosts := p.trap.Hosts(); len(hosts) > 0 {
		p.t.Errorf("claude tried to leave loopback: %v", hosts)
	}
}

// hookRuns lists the hooks of the stream that ran st, as
// "<hook_name> <outcome>".
func (r *run) hookRuns() []string {
	var out []string
	for _, ev := range r.events {
		if ev["type"] == "system" && ev["subtype"] == "hook_response" {
			out = append(out, fmt.Sprintf("%v %v", ev["hook_name"], ev["outcome"]))
		}
	}
	return out
}

// event is one line of st's hook event log.
type event struct {
	TS        string `json:"ts"`
	Event     string `json:"event"`
	Session   string `json:"session"`
	Tool      string `json:"tool"`
	Path      string `json:"path"`
	Command   string `json:"command"`
	Type      string `json:"type"`
	Error     string `json:"error"`
	Advice    string `json:"advice"`
	AgentType string `json:"agent_type"`
	AgentID   string `json:"agent_id"`
	Message   string `json:"message"`
	Judge     string `json:"judge"`
	Attempt   int    `json:"attempt"`
	CtxTokens int64  `json:"ctx_tokens"`
	Model     string `json:"model"`
	HookUS    int64  `json:"hook_us"`
	// Transcript: a Stop that found its reply not yet written names the
	// transcript, whose reader takes the fill from it (hooks.PendingFill).
	Transcript string `json:"transcript"`
}

// events reads every line of the agent's event logs, in time order.
func (p *project) events() []event {
	p.t.Helper()
	files, _ := filepath.Glob(filepath.Join(p.root, p.agent, "events", "*.jsonl"))
	var out []event
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			p.t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var e event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				p.t.Errorf("%s: bad line %q: %v", f, sc.Text(), err)
				continue
			}
			out = append(out, e)
		}
		fh.Close()
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].TS < out[j].TS })
	return out
}

// find returns the logged events named name.
func find(evs []event, name string) []event {
	var out []event
	for _, e := range evs {
		if e.Event == name {
			out = append(out, e)
		}
	}
	return out
}

func (p *project) status() string {
	data, _ := os.ReadFile(filepath.Join(p.root, p.agent, "status"))
	return strings.TrimSpace(string(data))
}

// inbox returns the contents of every message in agent's inbox.
func (p *project) inbox(agent string) []string {
	files, _ := filepath.Glob(filepath.Join(p.root, agent, "inbox", "*.md"))
	sort.Strings(files)
	var out []string
	for _, f := range files {
		data, _ := os.ReadFile(f)
		out = append(out, string(data))
	}
	return out
}

// writeNow replaces the agent's now.md, as `st context write` does.
func (p *project) writeNow(text string) {
	p.t.Helper()
	cmd := p.stCmd(p.agent, "context", "write")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("st context write: %v\n%s", err, out)
	}
}

// waitFor polls cond until it holds or d passes; then it fails t with
// what it waited for.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// firstContaining returns the index of the first request whose text
// contains s, or -1.
func firstContaining(reqs []*Request, s string) int {
	for i, r := range reqs {
		if strings.Contains(r.Text(), s) {
			return i
		}
	}
	return -1
}

// copies counts every copy of s in a request: in the system blocks, in
// every message of every role, in tool results, anywhere in the body the
// client sent (s must read the same JSON-encoded, e.g. a plain marker).
func copies(r *Request, s string) int { return strings.Count(string(r.Body), s) }

// countIn counts the requests whose last user message contains s.
func countIn(reqs []*Request, s string) int {
	n := 0
	for _, r := range reqs {
		if strings.Contains(r.LastUser(), s) {
			n++
		}
	}
	return n
}

// mainRequests drops the requests of side queries (subagents, title and
// summary calls): those whose first user text is not the prompt's.
func mainRequests(reqs []*Request, prompt string) []*Request {
	var out []*Request
	for _, r := range reqs {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Text, prompt) {
			out = append(out, r)
		}
	}
	return out
}

// debugError catches the client's error lines about hooks and st's MCP
// server, not unrelated ones whose paths hold a test's name. No node
// needed.
func TestDebugErrorLines(t *testing.T) {
	for line, want := range map[string]bool{
		`2026-12-02T02:38:16.004Z [ERROR] Failed to save config with lock: Error: ENOENT: no such file or directory, lstat '/tmp/TestToolHooks3872320729/001/home/.claude/.claude.json'`: false,
		`2026-12-02T01:34:48.251Z [ERROR] "Hook SessionStart:startup (SessionStart) error: status code 2`:                                                                                true,
		`[ERROR] MCP server "st" Server stderr: [smalltalk] no ST_AGENT set`:                                                                                                             true,
		`[ERROR] stop hook failed`: true,
	} {
		if debugError.MatchString(line) != want {
			t.Errorf("%q: %v", line, !want)
		}
	}
}
