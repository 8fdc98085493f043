package wiring

import (
	"slices"

	"github.com/smalltalk-go/st/hooks"
)

// The hooks beyond session boundaries, as the installer wires
// them.

// ClaudeAllEntries is the whole Claude Code set `st hooks install --all`
// wires: the session-boundary hooks (stop-failure with --retry, async
// and rewaking, with room for its longest backoff) plus every event
// beyond them, with its matcher and a timeout.
var ClaudeAllEntries = []Entry{
	{Event: "SessionStart", Hook: hooks.SessionStart, Args: claudeSessionStartArgs, Timeout: 5},
	{Event: "PreCompact", Hook: hooks.PreCompact},
	{Event: "StopFailure", Hook: hooks.StopFailure, Args: []string{"--retry"}, Async: true, AsyncRewake: true, Timeout: 900},
	{Event: "UserPromptSubmit", Hook: hooks.UserPromptSubmit, Timeout: 10},
	{Event: "SubagentStart", Hook: hooks.SubagentStart, Timeout: 5},
	{Event: "SubagentStop", Hook: hooks.SubagentStop, Timeout: 5},
	{Event: "PreToolUse", Hook: hooks.PreToolUse, Matcher: PreToolUseMatcher, Timeout: 5},
	{Event: "PostToolUse", Hook: hooks.PostToolUse, Timeout: 5},
	{Event: "PostToolUseFailure", Hook: hooks.PostToolUseFailure, Timeout: 5},
	{Event: "Notification", Hook: hooks.Notification, Timeout: 10},
	{Event: "Stop", Hook: hooks.Stop, Timeout: 5},
	{Event: "SessionEnd", Hook: hooks.SessionEnd, Timeout: 5},
}

// PartialNote is what install and doctor say when Claude Code has only
// the session-boundary hooks: what the plain install leaves out.
const PartialNote = "only the session-boundary hooks are wired for Claude Code: the dashboard's " +
	"waiting-on-a-human, thrashing, activity and context bar, the event log (st events), " +
	"deny rules and reservations need the others: run `st hooks install --all`"

// MissingFromAll lists the Claude Code events of ClaudeAllEntries that
// are not among wired.
func MissingFromAll(wired []string) []string {
	var out []string
	for _, e := range ClaudeAllEntries {
		if !slices.Contains(wired, e.Event) {
			out = append(out, e.Event)
		}
	}
	return out
}

// PreToolUseMatcher is the tools pre-tool-use looks at: Read for the
// large-read advisory, the shell and the file writers for deny rules,
// the file writers for reservations (reservations.go). MultiEdit is not
// offered by the current client (ClaudeEditTools); it stays matched,
// harmlessly, for an older client that still has it.
const PreToolUseMatcher = "Read|Bash|Edit|Write|MultiEdit|NotebookEdit"

// ClaudeEditTools are the file-editing tools the current Claude Code
// (2.1.328) offers the model, NotebookEdit among the tools it loads on
// demand: what the doctor requires the matcher to cover, and what the
// README names. The e2e test compares it with the tools the real client
// sends.
var ClaudeEditTools = []string{"Edit", "Write", "NotebookEdit"}

// InstallEntries is the set `st hooks install` wires for family: the
// minimal one, or with all the whole Claude Code set.
func InstallEntries(family string, all bool) []Entry {
	c, _ := ClientFor(family)
	return c.InstallSet(all)
}
