package hooks

// The hooks beyond session boundaries (issue 6), as the installer wires
// them.

// ClaudeAllEntries is the whole Claude Code set `st hooks install --all`
// wires: the session-boundary hooks (stop-failure with --retry, async
// and rewaking, with room for its longest backoff) plus every issue-6
// event with its matcher and a timeout.
var ClaudeAllEntries = []Entry{
	ClaudeSessionStart,
	{Event: "PreCompact", Hook: PreCompact},
	{Event: "StopFailure", Hook: StopFailure, Args: []string{"--retry"}, Async: true, AsyncRewake: true, Timeout: 900},
	{Event: "UserPromptSubmit", Hook: UserPromptSubmit, Timeout: 10},
	{Event: "SubagentStart", Hook: SubagentStart, Timeout: 5},
	{Event: "PreToolUse", Hook: PreToolUse, Matcher: PreToolUseMatcher, Timeout: 5},
	{Event: "PostToolUse", Hook: PostToolUse, Timeout: 5},
	{Event: "PostToolUseFailure", Hook: PostToolUseFailure, Timeout: 5},
	{Event: "Notification", Hook: Notification, Timeout: 10},
	{Event: "Stop", Hook: Stop, Timeout: 5},
	{Event: "SessionEnd", Hook: SessionEnd, Timeout: 5},
}

// PreToolUseMatcher is the tools pre-tool-use looks at: Read for the
// large-read advisory, the shell and the file writers for deny rules,
// the file writers for reservations (reservations.go).
const PreToolUseMatcher = "Read|Bash|Edit|Write|MultiEdit|NotebookEdit"

// InstallEntries is the set `st hooks install` wires for family: the
// minimal one, or with all the whole Claude Code set.
func InstallEntries(family string, all bool) []Entry {
	if all && family == ClaudeCode {
		return ClaudeAllEntries
	}
	return EntriesFor(family)
}
