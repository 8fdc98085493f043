package main

import (
	"bytes"
	"os"
	"slices"
	"time"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/hookkit"
	"github.com/smalltalk-go/st/internal/layout"
)

// The hooks beyond session boundaries (issue 6). Each is loose like the
// others: unknown flags and extra arguments are ignored.
type (
	hookUserPromptSubmitCmd   struct{}
	hookSubagentStartCmd      struct{}
	hookPreToolUseCmd         struct{}
	hookPostToolUseCmd        struct{}
	hookPostToolUseFailureCmd struct{}
	hookNotificationCmd       struct{}
	hookStopCmd               struct {
		Timestamp bool `help:"print the local time as a systemMessage"`
	}
	hookSessionEndCmd struct{}
)

func (c *hookUserPromptSubmitCmd) Run(a *app) error {
	return a.runEventHook(hookkit.UserPromptSubmit, false)
}
func (c *hookSubagentStartCmd) Run(a *app) error { return a.runEventHook(hookkit.SubagentStart, false) }
func (c *hookPreToolUseCmd) Run(a *app) error    { return a.runEventHook(hookkit.PreToolUse, false) }
func (c *hookPostToolUseCmd) Run(a *app) error   { return a.runEventHook(hookkit.PostToolUse, false) }
func (c *hookPostToolUseFailureCmd) Run(a *app) error {
	return a.runEventHook(hookkit.PostToolUseFailure, false)
}
func (c *hookNotificationCmd) Run(a *app) error { return a.runEventHook(hookkit.Notification, false) }
func (c *hookStopCmd) Run(a *app) error         { return a.runEventHook(hookkit.Stop, c.Timestamp) }
func (c *hookSessionEndCmd) Run(a *app) error   { return a.runEventHook(hookkit.SessionEnd, false) }

func (c *hookUserPromptSubmitCmd) help(a *app) string   { return hookUsage(a) }
func (c *hookSubagentStartCmd) help(a *app) string      { return hookUsage(a) }
func (c *hookPreToolUseCmd) help(a *app) string         { return hookUsage(a) }
func (c *hookPostToolUseCmd) help(a *app) string        { return hookUsage(a) }
func (c *hookPostToolUseFailureCmd) help(a *app) string { return hookUsage(a) }
func (c *hookNotificationCmd) help(a *app) string       { return hookUsage(a) }
func (c *hookStopCmd) help(a *app) string               { return hookUsage(a) }
func (c *hookSessionEndCmd) help(a *app) string         { return hookUsage(a) }

// hookEventsUsage is the usage block of these events (after the
// session-boundary ones).
const hookEventsUsage = `  user-prompt-submit    Claude Code UserPromptSubmit: context-fill and flush reminders
  subagent-start        Claude Code SubagentStart: the subagent report contract
  pre-tool-use          Claude Code PreToolUse: large-Read advisory, deny rules
  post-tool-use         Claude Code PostToolUse: event log
  post-tool-use-failure Claude Code PostToolUseFailure: thrash detection
  notification          Claude Code Notification: tell the operator who waits
  stop [--timestamp]    Claude Code Stop: inbox arrivals since the last check (--timestamp: local time)
  session-end           Claude Code SessionEnd: status offline
  stop-failure --retry  also retry transient API errors with backoff (asyncRewake)
`

// fastEventHook runs these events (and stop-failure --retry) without
// building the kong model; -h/--help falls through to kong.
func (a *app) fastEventHook(args []string) (handled bool, err error) {
	if len(args) < 2 || args[0] != "hook" || slices.Contains(args[2:], "-h") || slices.Contains(args[2:], "--help") {
		return false, nil
	}
	if args[1] == hooks.StopFailure && slices.Contains(args[2:], "--retry") {
		return true, a.stopFailureRetry()
	}
	if !slices.Contains(hookkit.Handled, args[1]) {
		return false, nil
	}
	timestamp := args[1] == hookkit.Stop && slices.Contains(args[2:], "--timestamp")
	return true, a.runEventHook(args[1], timestamp)
}

// needsConfig lists the events that read config.yaml.
var needsConfig = map[string]bool{
	hookkit.UserPromptSubmit: true, hookkit.SubagentStart: true, hookkit.PreToolUse: true, hookkit.Notification: true,
}

// hookEnv gathers what hookkit needs from the environment.
func (a *app) hookEnv(event string, start time.Time) hookkit.Env {
	var notices bytes.Buffer
	a.env.Notices = &notices // a hook never prints legacy notices
	env := hookkit.Env{Root: a.env.Root(), Now: a.now, Start: start,
		Knobs: hookkit.KnobsFrom(a.env.Get), Operator: a.env.Get("ST_OPERATOR"), Config: hookkit.DefaultConfig()}
	if id, err := a.env.AgentName(); err == nil && layout.ValidAgent(id) {
		env.Agent = id
	}
	if needsConfig[event] {
		env.Config = hookkit.LoadConfig(a.env.ConfigDir())
	}
	if event == hookkit.UserPromptSubmit {
		host, _ := os.Hostname()
		env.Spool = hookkit.SpoolEnv{Host: host, TmuxPane: a.env.Get("TMUX_PANE"), Entrypoint: a.env.Get("CLAUDE_CODE_ENTRYPOINT")}
	}
	return env
}

// runEventHook runs one of hookkit's events: stdin payload in, output
// out, failing open (a panic or a blown budget exits 0 silently).
func (a *app) runEventHook(event string, timestamp bool) (err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = nil
		}
	}()
	stdin := readBounded(a.stdin, stdinBound)
	env := a.hookEnv(event, start)
	env.Timestamp = timestamp
	if a.env.Get("ST_HOOK_TEST_PANIC") == "1" {
		panic("hookkit: test panic")
	}
	res, ok := budgeted(hooks.Budget(a.env.Get("ST_HOOK_TIMEOUT_MS")), func() hookkit.Result {
		return hookkit.Run(event, stdin, env)
	})
	if !ok {
		return nil
	}
	return a.printHookResult(res)
}

// stopFailureRetry is `st hook stop-failure --retry`: the normal
// stop-failure policy, then hookkit's retry (which records the event).
func (a *app) stopFailureRetry() (err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = nil
		}
	}()
	stdin := readBounded(a.stdin, stdinBound)
	a.stdin = bytes.NewReader(stdin)
	if err := a.runHook(hooks.StopFailure, hooks.Options{}); err != nil {
		return err
	}
	if a.env.Get("ST_HOOK_TEST_PANIC") == "1" {
		panic("hookkit: test panic")
	}
	env := a.hookEnv(hooks.StopFailure, start)
	env.Config = hookkit.LoadConfig(a.env.ConfigDir()) // the operator
	return a.printHookResult(hookkit.StopFailureRetry(stdin, env))
}

func (a *app) printHookResult(res hookkit.Result) error {
	a.stdout.Write(res.Stdout)
	a.stderr.Write(res.Stderr)
	if res.Code != 0 {
		return exitCode(res.Code)
	}
	return nil
}

// budgeted runs fn within d; ok is false when it panicked or ran over.
func budgeted(d time.Duration, fn func() hookkit.Result) (res hookkit.Result, ok bool) {
	done := make(chan hookkit.Result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				close(done)
			}
		}()
		done <- fn()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case r, ok := <-done:
		return r, ok
	case <-timer.C:
		return hookkit.Result{}, false
	}
}

// recordHook appends the event line of a session-boundary hook (run by
// runHook). stdin is its payload when it read one; otherwise the session
// comes from CLAUDE_CODE_SESSION_ID. stop-failure --retry records its own
// line, with the attempt.
func (a *app) recordHook(event string, stdin []byte, start time.Time) {
	defer func() { recover() }()
	if event == hooks.StopFailure && slices.Contains(a.args, "--retry") {
		return
	}
	hookkit.Record(event, stdin, a.env.Get("CLAUDE_CODE_SESSION_ID"), a.hookEnv(event, start))
}
