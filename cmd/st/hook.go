package main

import (
	"bytes"
	"fmt"
	"github.com/smalltalk-go/st/fleet"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/layout"
)

// hookCmd groups the in-process hooks (st-compat.md §7). Every event is
// loose: a typo in a settings file must never turn into exit 2 or stderr
// noise, so unknown flags and extra arguments are ignored.
type hookCmd struct {
	SessionStart      hookSessionStartCmd      `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_REHYDRATE_STALE_S ST_HOOK_CONTEXT_BUDGET ST_CONFIG ST_HOST ST_SYNC_STALE_S TMUX_PANE" help:"Claude Code SessionStart: feed back now.md, the fleet brief and the start-of-session reminder"`
	PreCompact        hookPreCompactCmd        `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_PRECOMPACT_TIMEOUT_S ST_PRECOMPACT_FRESH_S" help:"Claude Code PreCompact: make sure now.md holds the current state"`
	StopFailure       hookStopFailureCmd       `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_OPERATOR ST_STOPFAILURE_WINDOW_S ST_CONFIG ST_HOST TMUX_PANE" help:"Claude Code StopFailure: set the status and tell the operator"`
	CodexSessionStart hookCodexSessionStartCmd `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_REHYDRATE_STALE_S ST_HOOK_CONTEXT_BUDGET ST_CONFIG ST_HOST ST_SYNC_STALE_S" help:"Codex SessionStart: feed back now.md, the unread inbox and the fleet brief"`
	CodexStop         hookCodexStopCmd         `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_HOOK_CONTEXT_BUDGET XDG_STATE_HOME ST_CONFIG ST_HOST TMUX_PANE" help:"Codex Stop: report messages that arrived since the last check, nudge a turn the stop judge finds unfinished"`
	CodexPreToolUse   hookCodexPreToolUseCmd   `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS" help:"Codex PreToolUse: refuse an apply_patch or shell command writing under another agent's reservation"`

	// Beyond the session boundaries, wired by --all (hook_events.go).
	UserPromptSubmit   hookUserPromptSubmitCmd   `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_FLUSH_REMIND_S ST_CAPTURE_PROMPTS ST_HOST TMUX_PANE" help:"Claude Code UserPromptSubmit: remind the agent when its context fills up"`
	SubagentStart      hookSubagentStartCmd      `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS" help:"Claude Code SubagentStart: tell a subagent how to report back"`
	SubagentStop       hookSubagentStopCmd       `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_CONFIG" help:"Claude Code SubagentStop: record the subagent's end, send back one that only returned a plan when the subagent gate says so"`
	PreToolUse         hookPreToolUseCmd         `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS" help:"Claude Code PreToolUse: refuse edits and shell writes under others' reservations, apply deny rules, warn before large reads"`
	PostToolUse        hookPostToolUseCmd        `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_HOST TMUX_PANE" help:"Claude Code PostToolUse: log the tool run"`
	PostToolUseFailure hookPostToolUseFailureCmd `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_HOST TMUX_PANE" help:"Claude Code PostToolUseFailure: notice a tool failing again and again"`
	Notification       hookNotificationCmd       `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_OPERATOR TMUX_PANE ST_HOST" help:"Claude Code Notification: tell the operator the agent waits"`
	Stop               hookStopCmd               `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS CLAUDE_CODE_SESSION_ID ST_CONFIG ST_HOST TMUX_PANE" help:"Claude Code Stop: report messages that arrived during the turn, nudge a turn the stop judge finds unfinished"`
	SessionEnd         hookSessionEndCmd         `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_HOST TMUX_PANE" help:"Claude Code SessionEnd: set the status to offline"`

	// Gemini CLI's own events; its AfterTool, PreCompress and SessionEnd
	// run post-tool-use, pre-compact and session-end.
	GeminiSessionStart hookGeminiSessionStartCmd `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_REHYDRATE_STALE_S ST_HOOK_CONTEXT_BUDGET ST_CONFIG ST_HOST ST_SYNC_STALE_S XDG_STATE_HOME" help:"Gemini CLI SessionStart: feed back now.md, the unread inbox and the fleet brief"`
	GeminiBeforeTool   hookGeminiBeforeToolCmd   `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS" help:"Gemini CLI BeforeTool: refuse a write_file, replace or shell command writing under another agent's reservation"`
	GeminiAfterAgent   hookGeminiAfterAgentCmd   `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_HOOK_CONTEXT_BUDGET XDG_STATE_HOME ST_CONFIG ST_HOST TMUX_PANE" help:"Gemini CLI AfterAgent: report messages that arrived since the last check, once"`
	GeminiNotification hookGeminiNotificationCmd `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS ST_OPERATOR TMUX_PANE ST_HOST" help:"Gemini CLI Notification: tell the operator the agent waits"`

	// git hooks, guarding commits against reservations (hook_git.go).
	GitPreCommit hookGitPreCommitCmd `cmd:"" loose:"" reads:"ST_ROOT ST_AGENT ST_HOOK_TIMEOUT_MS" help:"git pre-commit: refuse a commit touching another agent's reservation"`
}

// hookGroup is how `st hook` reacts to a missing or unknown sub-verb.
var hookGroup = group{
	noVerbCode:  exitError,
	unknown:     func(a *app, v string) string { return fmt.Sprintf("%s hook: unknown event: %s\n\n", a.name, v) },
	unknownCode: exitError,
}

type hookSessionStartCmd struct {
	JSON  bool `name:"json" help:"print hookSpecificOutput JSON on stdout and exit 0"`
	Inbox bool `help:"add a summary of the unread inbox"`
}
type hookPreCompactCmd struct{}
type hookStopFailureCmd struct {
	Retry bool `help:"retry transient API errors with backoff"`
}
type hookCodexSessionStartCmd struct{}
type hookCodexStopCmd struct{}
type hookCodexPreToolUseCmd struct{}
type hookGeminiSessionStartCmd struct{}
type hookGeminiBeforeToolCmd struct{}
type hookGeminiAfterAgentCmd struct{}
type hookGeminiNotificationCmd struct{}

func (c *hookGeminiSessionStartCmd) Run(a *app) error {
	return a.runHook(hooks.GeminiSessionStart, hooks.Options{})
}
func (c *hookGeminiBeforeToolCmd) Run(a *app) error {
	return a.runHook(hooks.GeminiBeforeTool, hooks.Options{})
}
func (c *hookGeminiAfterAgentCmd) Run(a *app) error {
	return a.runHook(hooks.GeminiAfterAgent, hooks.Options{})
}
func (c *hookGeminiNotificationCmd) Run(a *app) error {
	return a.runHook(hooks.GeminiNotification, hooks.Options{})
}

func (c *hookSessionStartCmd) Run(a *app) error {
	return a.runHook(hooks.SessionStart, hooks.Options{JSON: c.JSON, Inbox: c.Inbox})
}
func (c *hookPreCompactCmd) Run(a *app) error { return a.runHook(hooks.PreCompact, hooks.Options{}) }
func (c *hookStopFailureCmd) Run(a *app) error {
	return a.runHook(hooks.StopFailure, hooks.Options{Retry: c.Retry})
}
func (c *hookCodexSessionStartCmd) Run(a *app) error {
	return a.runHook(hooks.CodexSessionStart, hooks.Options{})
}
func (c *hookCodexStopCmd) Run(a *app) error { return a.runHook(hooks.CodexStop, hooks.Options{}) }
func (c *hookCodexPreToolUseCmd) Run(a *app) error {
	return a.runHook(hooks.CodexPreToolUse, hooks.Options{})
}

// fastHook runs `st hook <event> …` without building the kong model, the
// largest cost of a hook process after the Go runtime's start. It takes
// only the plain case (a known event, no -h/--help anywhere) and parses
// exactly what the kong path would: session-start's --json and --inbox,
// stop's --timestamp, stop-failure's --retry, everything else ignored
// (the events are loose).
func (a *app) fastHook(args []string) (handled bool, err error) {
	if len(args) < 2 || args[0] != "hook" || !hooks.IsEvent(args[1]) {
		return false, nil
	}
	flags := args[2:]
	if slices.Contains(flags, "-h") || slices.Contains(flags, "--help") {
		return false, nil
	}
	var opt hooks.Options
	switch args[1] {
	case hooks.SessionStart:
		opt.JSON, opt.Inbox = slices.Contains(flags, "--json"), slices.Contains(flags, "--inbox")
	case hooks.Stop:
		opt.Timestamp = slices.Contains(flags, "--timestamp")
	case hooks.StopFailure:
		opt.Retry = slices.Contains(flags, "--retry")
	}
	return true, a.runHook(args[1], opt)
}

// runHook runs one hook through hooks.Serve, which guards the whole run,
// resolving the environment included.
func (a *app) runHook(event string, opt hooks.Options) error {
	// A hook runs in the agent's own session: it marks this host as the
	// agent's home (fleet.MarkHome) once it is done.
	var resolved hooks.Options
	resolve := func(o *hooks.Options) {
		a.resolveHook(o)
		if event == hooks.SessionEnd || event == hooks.CodexStop { // the hooks that export a trace
			o.TraceBin, o.OTelEnv = func() string { return a.companion("st-trace") }, a.otelEnv()
		}
		resolved = *o
	}
	code := hooks.Serve(event, opt, resolve, a.stdin, a.stdout, a.stderr)
	if resolved.Agent != "" {
		_ = fleet.MarkHome(resolved.StateDir, resolved.Root, resolved.Agent, a.now()) // best effort: a missing mark only delays the claim to the next write
	}
	if code != 0 {
		return exitCode(code)
	}
	return nil
}

// resolveHook fills a hook's Options from the environment: root and agent
// resolved like the CLI's env path (without creating anything and without
// printing legacy notices), and the hooks' settings.
func (a *app) resolveHook(opt *hooks.Options) {
	var notices bytes.Buffer
	a.env.Notices = &notices
	opt.Root = a.env.Root()
	if id, err := a.env.AgentName(); err == nil && layout.ValidAgent(id) {
		opt.Agent = id
	}
	opt.Now = a.now
	opt.HookTimeoutMS = a.env.Get("ST_HOOK_TIMEOUT_MS")
	opt.RehydrateStaleS = a.env.Get("ST_REHYDRATE_STALE_S")
	opt.PrecompactTimeoutS = a.env.Get("ST_PRECOMPACT_TIMEOUT_S")
	opt.PrecompactFreshS = a.env.Get("ST_PRECOMPACT_FRESH_S")
	opt.StopFailureWindowS = a.env.Get("ST_STOPFAILURE_WINDOW_S")
	opt.ContextBudget = a.env.Get("ST_HOOK_CONTEXT_BUDGET")
	opt.FleetHost = a.env.Get("ST_HOST")
	opt.SyncStaleS = a.env.Get("ST_SYNC_STALE_S")
	opt.Operator = a.env.Get("ST_OPERATOR")
	opt.Session = a.env.Get("CLAUDE_CODE_SESSION_ID")
	opt.ConfigDir = a.env.ConfigDir()
	opt.StateDir = a.env.Get("XDG_STATE_HOME")
	if opt.StateDir == "" {
		opt.StateDir = filepath.Join(a.env.Home(), ".local", "state")
	}
	opt.ProblemNotes = a.problemNoteDirs(opt.StateDir)
	opt.Knobs = hooks.KnobsFrom(a.env.Get)
	opt.Spool = hooks.SpoolEnv{TmuxPane: a.env.Get("TMUX_PANE"), Entrypoint: a.env.Get("CLAUDE_CODE_ENTRYPOINT")}
	opt.Notices = notices.Bytes()
	opt.TestPanic = a.env.Get("ST_HOOK_TEST_PANIC") == "1"
	if ms, err := strconv.ParseFloat(strings.TrimSpace(a.env.Get("ST_HOOK_TEST_DELAY_MS")), 64); err == nil && ms > 0 {
		opt.TestDelay = time.Duration(ms * float64(time.Millisecond))
	}
}

// Help is hook's paragraph.
func (hookCmd) Help() string {
	return `Claude Code and Codex run these with a JSON payload on stdin once
"{NAME} hooks install" has wired them; they are not meant to be typed. A hook
never fails the client: with no agent set, a bad payload or an error it
exits 0 and prints nothing, and "{NAME} hooks doctor" explains why.`
}

// hookExamples are the two examples every event shows: the wired call,
// and a call by hand with a small payload.
func hookExamples(event string) []example {
	return []example{
		{"what the client runs, with its JSON payload on stdin", "st hook " + event + " < payload.json"},
		{"try it by hand as alice", `echo '{"session_id":"test"}' | ST_AGENT=alice st hook ` + event},
	}
}

func (hookSessionStartCmd) examples() []example       { return hookExamples("session-start --json") }
func (hookPreCompactCmd) examples() []example         { return hookExamples("pre-compact") }
func (hookStopFailureCmd) examples() []example        { return hookExamples("stop-failure") }
func (hookCodexSessionStartCmd) examples() []example  { return hookExamples("codex-session-start") }
func (hookCodexStopCmd) examples() []example          { return hookExamples("codex-stop") }
func (hookCodexPreToolUseCmd) examples() []example    { return hookExamples("codex-pre-tool-use") }
func (hookGeminiSessionStartCmd) examples() []example { return hookExamples("gemini-session-start") }
func (hookGeminiBeforeToolCmd) examples() []example   { return hookExamples("gemini-before-tool") }
func (hookGeminiAfterAgentCmd) examples() []example   { return hookExamples("gemini-after-agent") }
func (hookGeminiNotificationCmd) examples() []example { return hookExamples("gemini-notification") }

func (hookCmd) examples() []example {
	return []example{
		{"wire the hooks rather than calling them", "st hooks install --all"},
		{"run one by hand with a small payload", `echo '{"session_id":"test"}' | ST_AGENT=alice st hook session-start`},
	}
}

// problemNoteDirs are where a hook that cannot write leaves its note and
// where a person's command looks for it (hooks/store_problem.go).
func (a *app) problemNoteDirs(stateDir string) []string {
	tmp := a.env.Get("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	return hooks.ProblemNoteDirs(stateDir, tmp, strconv.Itoa(os.Getuid()))
}

// storeProblem prints, once, the note a hook left because it could not
// write to the store. It costs the command one stat per folder.
func (a *app) storeProblem() {
	state := a.env.Get("XDG_STATE_HOME")
	if state == "" {
		state = filepath.Join(a.env.Home(), ".local", "state")
	}
	if w := hooks.StoreProblem(a.problemNoteDirs(state), a.root()); w != "" {
		fmt.Fprintf(a.stderr, "%s: %s\n", a.name, w)
	}
}
