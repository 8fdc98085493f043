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

// reserveCheck collects the Claude Code pre-tool-use handlers of st the
// doctor finds, to check that they enforce reservations.
type reserveCheck struct {
	claudeOurs bool // some Claude Code settings file wires st
	pre        []matchedHandler
}

type matchedHandler struct {
	matcher string
	command string
}

// add records doc's st handlers (doc is a Claude Code settings file).
func (rc *reserveCheck) add(doc *jsonobj.Object, stBin string) {
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
			m, _ := group.Get("matcher")
			matcher, _ := m.(string)
			hv, _ := group.Get("hooks")
			list, _ := hv.([]any)
			for _, h := range list {
				obj, ok := h.(*jsonobj.Object)
				if !ok {
					continue
				}
				c, _ := obj.Get("command")
				cmd, _ := c.(string)
				ev, ours := OursEvent(cmd, stBin)
				rc.claudeOurs = rc.claudeOurs || ours
				if ours && ev == hooks.PreToolUse && event == "PreToolUse" {
					rc.pre = append(rc.pre, matchedHandler{matcher: matcher, command: cmd})
				}
			}
		}
	}
}

// report says whether reservations are enforced: a comment when no
// pre-tool-use hook is wired, a failure when its matcher leaves an
// editing tool out or when it does not refuse an edit under another
// agent's reservation (fired against a temporary repository).
func (rc *reserveCheck) report(opt DoctorOptions, fail func(string, ...any), w io.Writer) {
	if !rc.claudeOurs {
		return
	}
	if len(rc.pre) == 0 {
		fmt.Fprintln(w, "# reservations (st reserve) are not enforced in Claude Code: no st pre-tool-use hook (`st hooks install --all` wires it)")
		return
	}
	for _, h := range rc.pre {
		if missing := uncovered(h.matcher, hooks.EditTools); len(missing) > 0 {
			fail("PreToolUse: matcher %q leaves out %s: edits with them bypass reservations", h.matcher, strings.Join(missing, ", "))
			continue
		}
		ms, problem := fireReserved(h.command, opt)
		if problem != "" {
			fail("PreToolUse: %s (%d ms): does not refuse an edit under another agent's reservation: %s", h.command, ms, problem)
		} else {
			fmt.Fprintf(w, "PASS  PreToolUse: refuses an edit under another agent's reservation (%d ms)\n", ms)
		}
	}
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
// a Write into a temporary repository whose src/ agent "doctor-peer"
// holds exclusively, and checks that it answers with a deny.
func fireReserved(command string, opt DoctorOptions) (ms int64, problem string) {
	tmp, err := os.MkdirTemp(opt.TempDir, "st-doctor-")
	if err != nil {
		return 0, err.Error()
	}
	defer os.RemoveAll(tmp)
	repo, root := filepath.Join(tmp, "repo"), filepath.Join(tmp, "root")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		return 0, err.Error()
	}
	repo, _ = filepath.EvalSymlinks(repo)
	t, err := fsutil.OpenOrCreate(root)
	if err != nil {
		return 0, err.Error()
	}
	_, err = reserve.Reserve(context.Background(), t, reserve.Request{Agent: "doctor-peer", Repo: repo,
		Patterns: []string{"src/**"}, Reason: "doctor check"}, time.Now())
	t.Close()
	if err != nil {
		return 0, err.Error()
	}
	payload, _ := json.Marshal(map[string]any{"session_id": "doctor", "hook_event_name": "PreToolUse", "cwd": repo,
		"tool_name": "Write", "tool_input": map[string]any{"file_path": filepath.Join(repo, "src", "x.go"), "content": "x"},
		"tool_use_id": "doctor"})
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
	case !bytes.Contains(stdout.Bytes(), []byte(`"permissionDecision":"deny"`)) || !bytes.Contains(stdout.Bytes(), []byte("doctor-peer")):
		return ms, fmt.Sprintf("it answered %q", firstLine(stdout.Bytes()))
	}
	return ms, ""
}
