package wiring

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/smalltalk-go/st/hooks"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/reserve"
)

// reserveCheck collects the pre-tool-use handlers of st the doctor
// finds (Claude Code's pre-tool-use, Codex's codex-pre-tool-use), to
// check that they enforce reservations.
type reserveCheck struct {
	claudeOurs bool // some Claude Code settings file wires st
	pre        []matchedHandler
	codexOurs  bool // some Codex hooks.json or config.toml wires st
	codexPre   []matchedHandler
	codexSkips func(event, command string) bool // Codex will not run it (nil: runs all)
	geminiOurs bool                             // some Gemini CLI settings file wires st
	geminiPre  []matchedHandler
}

type matchedHandler struct {
	matcher string
	command string
}

// add records doc's st handlers (doc is a settings file of family's).
func (rc *reserveCheck) add(doc *jsonobj.Object, stBin string, family string) {
	byEvent := hooksObject(doc, false)
	if byEvent == nil {
		return
	}
	for _, event := range byEvent.Keys() {
		v, _ := byEvent.Get(event)
		groups, _ := v.([]any)
		for _, g := range groups {
			group, ok := g.(*jsonobj.Object)
			if !ok {
				continue
			}
			hv, _ := group.Get("hooks")
			list, _ := hv.([]any)
			for _, h := range list {
				obj, ok := h.(*jsonobj.Object)
				if !ok {
					continue
				}
				c, _ := obj.Get("command")
				cmd, _ := c.(string)
				rc.note(event, group, cmd, stBin, family)
			}
		}
	}
}

// addTOML records the st handlers of a Codex config.toml's [hooks] tables.
func (rc *reserveCheck) addTOML(path, stBin string) {
	cfg, err := ReadCodexConfig(path)
	if err != nil {
		return
	}
	for _, h := range cfg.Handlers {
		rc.note(h.Event, h.group, h.Command, stBin, hooks.Codex)
	}
}

// note records one handler of event in group.
func (rc *reserveCheck) note(event string, group *jsonobj.Object, cmd, stBin string, family string) {
	ev, ours := OursEvent(cmd, stBin)
	if !ours {
		return
	}
	var matcher string
	if group != nil {
		m, _ := group.Get("matcher")
		matcher, _ = m.(string)
	}
	h := matchedHandler{matcher: matcher, command: cmd}
	switch family {
	case hooks.Gemini:
		rc.geminiOurs = true
		if ev == hooks.GeminiBeforeTool && event == "BeforeTool" {
			rc.geminiPre = append(rc.geminiPre, h)
		}
	case hooks.Codex:
		rc.codexOurs = true
		if ev == hooks.CodexPreToolUse && event == "PreToolUse" {
			rc.codexPre = append(rc.codexPre, h)
		}
	default:
		rc.claudeOurs = true
		if ev == hooks.PreToolUse && event == "PreToolUse" {
			rc.pre = append(rc.pre, h)
		}
	}
}

// report says whether reservations are enforced in each client st is
// wired into: a comment when no pre-tool-use hook is wired, a failure
// when its matcher leaves an editing tool out or when it does not refuse
// an edit under another agent's reservation (fired against a temporary
// repository).
func (rc *reserveCheck) report(opt DoctorOptions, fail func(string, ...any), w io.Writer) {
	if rc.claudeOurs {
		if len(rc.pre) == 0 {
			fmt.Fprintln(w, "# reservations (st reserve) are not enforced in Claude Code: no st pre-tool-use hook (`st hooks install --all` wires it)")
		}
		for _, h := range rc.pre {
			rc.check("PreToolUse", h, ClaudeEditTools, claudeWrite, opt, fail, w)
		}
	}
	if rc.codexOurs {
		if len(rc.codexPre) == 0 {
			fmt.Fprintln(w, "# reservations (st reserve) are not enforced in Codex: no st codex-pre-tool-use hook (`st hooks install --for codex` wires it)")
		}
		for _, h := range rc.codexPre {
			rc.check(codexPreLabel, h, CodexEditTools, codexApplyPatch, opt, fail, w)
		}
	}
	if rc.geminiOurs {
		if len(rc.geminiPre) == 0 {
			fmt.Fprintln(w, "# reservations (st reserve) are not enforced in Gemini CLI: no st gemini-before-tool hook (`st hooks install --for gemini` wires it)")
		}
		for _, h := range rc.geminiPre {
			rc.check("Gemini CLI BeforeTool", h, hooks.GeminiEditTools, geminiWriteFile, opt, fail, w)
		}
	}
}

// geminiWriteFile is a Gemini CLI write_file of src/x.go in repo, shaped
// as Gemini CLI 0.61.0 sends it (e2e/gemini/testdata/payloads).
func geminiWriteFile(repo string) map[string]any {
	return map[string]any{"session_id": "doctor", "transcript_path": "", "cwd": repo, "hook_event_name": "BeforeTool",
		"timestamp": "2026-01-01T00:00:00.000Z", "tool_name": "write_file",
		"tool_input": map[string]any{"file_path": filepath.Join(repo, "src", "x.go"), "content": "x"}}
}

// codexPreLabel names Codex's reservation check in the doctor's lines.
const codexPreLabel = "Codex PreToolUse"

// check fails h when its matcher leaves out one of tools or when, fired
// with the payload edit builds, it does not refuse the edit.
func (rc *reserveCheck) check(label string, h matchedHandler, tools []string, edit func(repo string) map[string]any,
	opt DoctorOptions, fail func(string, ...any), w io.Writer) {
	if missing := uncovered(h.matcher, tools); len(missing) > 0 {
		fail("%s: matcher %q leaves out %s: edits with them bypass reservations", label, h.matcher, strings.Join(missing, ", "))
		return
	}
	ms, problem := fireReserved(h.command, opt, edit)
	switch {
	case problem != "":
		fail("%s: %s (%d ms): does not refuse an edit under another agent's reservation: %s", label, h.command, ms, problem)
	case label == codexPreLabel && rc.codexSkips != nil && rc.codexSkips("PreToolUse", h.command):
		fmt.Fprintf(w, "  ok    %s: refuses an edit under another agent's reservation when fired (%d ms), but Codex will not run it until trusted\n", label, ms)
	default:
		fmt.Fprintf(w, "PASS  %s: refuses an edit under another agent's reservation (%d ms)\n", label, ms)
	}
}

// CodexEditTools are the tool names Codex 0.169 gives PreToolUse for a
// file edit: its apply_patch tool, and its shell when the model runs
// apply_patch there (e2e/codex/testdata/payloads).
var CodexEditTools = []string{"apply_patch", "Bash"}

// claudeWrite is a Claude Code Write of src/x.go in repo.
func claudeWrite(repo string) map[string]any {
	return map[string]any{"session_id": "doctor", "hook_event_name": "PreToolUse", "cwd": repo,
		"tool_name": "Write", "tool_input": map[string]any{"file_path": filepath.Join(repo, "src", "x.go"), "content": "x"},
		"tool_use_id": "doctor"}
}

// codexApplyPatch is a Codex apply_patch adding src/x.go in repo, shaped
// as Codex 0.169 sends it.
func codexApplyPatch(repo string) map[string]any {
	return map[string]any{"session_id": "doctor", "turn_id": "doctor", "transcript_path": nil, "cwd": repo,
		"hook_event_name": "PreToolUse", "model": "doctor", "permission_mode": "bypassPermissions",
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": "*** Begin Patch\n*** Add File: src/x.go\n+x\n*** End Patch\n"},
		"tool_use_id": "doctor"}
}

// uncovered lists the tools a Claude Code matcher does not match ("" and
// "*" match every tool; anything else is a regular expression over the
// whole name).
func uncovered(matcher string, tools []string) []string {
	if matcher == "" || matcher == "*" {
		return nil
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	if err != nil {
		return tools
	}
	var out []string
	for _, t := range tools {
		if !re.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// fireReserved runs command as the harness would, as agent "doctor", on
// the edit of src/x.go edit builds, in a temporary repository whose src/ agent "doctor-peer"
// holds exclusively, and checks that it answers with a deny.
func fireReserved(command string, opt DoctorOptions, edit func(repo string) map[string]any) (ms int64, problem string) {
	tmp, err := os.MkdirTemp(opt.TempDir, "st-doctor-")
	if err != nil {
		return 0, err.Error()
	}
	defer func() { _ = os.RemoveAll(tmp) }() // a leftover temp folder harms nothing
	repo, root := filepath.Join(tmp, "repo"), filepath.Join(tmp, "root")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		return 0, err.Error()
	}
	repo, _ = filepath.EvalSymlinks(repo)
	t, err := fsutil.OpenOrCreate(root)
	if err != nil {
		return 0, err.Error()
	}
	_, err = reserve.Reserve(context.Background(), t, reserve.Request{Agent: "doctor-peer", Repo: reserve.Where{Top: repo},
		Patterns: []string{"src/**"}, Reason: "doctor check"}, time.Now())
	t.Close()
	if err != nil {
		return 0, err.Error()
	}
	payload, _ := json.Marshal(edit(repo))
	env := []string{}
	for _, kv := range opt.Env {
		if !strings.HasPrefix(kv, "ST_") && !strings.HasPrefix(kv, "COORD_") && !strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, "ST_ROOT="+root, "ST_AGENT=doctor", "ST_CONFIG="+filepath.Join(tmp, "config"),
		"XDG_STATE_HOME="+filepath.Join(tmp, "state"))
	ctx, cancel := context.WithTimeout(context.Background(), opt.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Env, cmd.Stdin = env, bytes.NewReader(payload)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	start := time.Now()
	err = cmd.Run()
	ms = time.Since(start).Milliseconds()
	switch {
	case ctx.Err() != nil:
		return ms, fmt.Sprintf("timed out after %s", opt.Timeout)
	case err != nil:
		return ms, err.Error()
	case !denies(stdout.Bytes()) || !bytes.Contains(stdout.Bytes(), []byte("doctor-peer")):
		return ms, fmt.Sprintf("it answered %q", firstLine(stdout.Bytes()))
	}
	return ms, ""
}

// denies reports whether out refuses the call, in Claude Code's form
// (Codex reads it too) or Gemini CLI's.
func denies(out []byte) bool {
	return bytes.Contains(out, []byte(`"permissionDecision":"deny"`)) || bytes.HasPrefix(out, []byte(`{"decision":"deny"`))
}
