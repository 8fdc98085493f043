// Package hooks is every agent-integration hook st runs in process
// (`st hook <event>`): the session-boundary events of st-compat §7
// (session-start, pre-compact, stop-failure, and Codex's
// codex-session-start and codex-stop), the Claude Code events that
// `st hooks install --all` adds (user-prompt-submit, subagent-start,
// subagent-stop, pre-tool-use, post-tool-use, post-tool-use-failure, notification,
// stop, session-end, and stop-failure --retry), Codex's
// codex-pre-tool-use, which refuses edits under another agent's
// reservation, and Gemini CLI's gemini-session-start, gemini-before-tool,
// gemini-after-agent and gemini-notification (gemini.go). What each
// client needs of the runtime is one row of Clients (clients.go).
//
// Every event goes through one runner (run.go): Serve reads the payload
// (bounded), loads config.yaml for the hooks that read it, and hands
// both to Run, which bounds the hook with its time budget, recovers
// panics, appends the event's line to the agent's event log
// ($ST_ROOT/<agent>/events/, package events) and returns what to print.
// A hook is a plain function of its input (the payload, Options holding
// the resolved root and agent, the settings the caller read from the
// environment, a clock) to its output (stdout bytes, stderr bytes, exit
// code). It never reads the environment, never exits and never prints
// itself, so cmd/st only wires it.
//
// Hooks fail open. Claude Code reads exit 2 as "block" on most events and
// Go's runtime exits 2 on an unrecovered panic, so the runner turns any
// internal fault into exit 0 with nothing on stdout. The deliberate exit
// 2s are session-start's wake-up and stop-failure --retry's rewake; on a
// fault session-start still prints its ritual line and exits 2, which
// never blocks on SessionStart.
//
// What the --all hooks tell the model or the operator is decided by
// small rules, each in its file: context-fill warnings (transcript.go),
// flush reminders (flush.go), the subagent contract and gate (subagent.go),
// large-read advisories and deny rules (pretool.go), thrash detection
// (thrash.go), operator notes (notify.go), stop-failure retries
// (retry.go), the prompt spool (spool.go) and the pre-compact digest
// (digest.go). Their per-session state lives next to the event log
// (events.StatePath) and is only touched under a lock (state.go); every
// rule fails open (a missing or unreadable input means "say nothing").
//
// How the hooks are wired into a client (the settings editors, `st
// hooks path`, the git guard's install and `st hooks doctor`) is package
// wiring. This package keeps what wiring needs from it: the event names,
// the sample payloads the doctor fires (samples.go) and the checks of a
// hook's output (validate.go). The git pre-commit guard that `st hooks
// install --for git` wires runs here too (git_guard.go).
package hooks

import (
	"fmt"
	"slices"
	"time"
)

// Event names accepted by `st hook <event>`: the session-boundary ones
// (st-compat §7)...
const (
	SessionStart      = "session-start"
	PreCompact        = "pre-compact"
	StopFailure       = "stop-failure"
	CodexSessionStart = "codex-session-start"
	CodexStop         = "codex-stop"
	CodexPreToolUse   = "codex-pre-tool-use"
)

// ... and those beyond the session boundaries, which `st hooks install
// --all` wires.
const (
	UserPromptSubmit   = "user-prompt-submit"
	SubagentStart      = "subagent-start"
	SubagentStop       = "subagent-stop"
	PreToolUse         = "pre-tool-use"
	PostToolUse        = "post-tool-use"
	PostToolUseFailure = "post-tool-use-failure"
	Notification       = "notification"
	Stop               = "stop"
	SessionEnd         = "session-end"
)

// Events lists the session-boundary events in usage order.
var Events = []string{SessionStart, PreCompact, StopFailure, CodexSessionStart, CodexStop, CodexPreToolUse}

// ExtraEvents lists the events beyond the session boundaries, in usage
// order.
var ExtraEvents = []string{UserPromptSubmit, SubagentStart, SubagentStop, PreToolUse, PostToolUse, PostToolUseFailure, Notification, Stop, SessionEnd}

// IsEvent reports whether name is one of Events, ExtraEvents, GeminiEvents
// or GitEvents.
func IsEvent(name string) bool {
	return slices.Contains(Events, name) || slices.Contains(ExtraEvents, name) ||
		slices.Contains(GeminiEvents, name) || slices.Contains(GitEvents, name)
}

// isoSecond formats t as date -u +%Y-%m-%dT%H:%M:%SZ does.
func isoSecond(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// errLine is how an upstream child `st` reported an error on stderr.
func errLine(err error) string { return fmt.Sprintf("st: %s\n", err.Error()) }
