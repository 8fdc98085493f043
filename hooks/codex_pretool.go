package hooks

// codexPreToolUse refuses a Codex apply_patch (its own tool) or shell
// command that writes a file under another agent's active exclusive
// reservation, with the reason Claude Code's pre-tool-use gives
// (writes.go). Codex 0.169 honours the deny as Claude Code's
// hookSpecificOutput and hands the reason to the model as the tool's
// output. Anything else passes silently: Codex rejects a bare allow.
func codexPreToolUse(c *call) Result {
	if reason, advice, denied := writesDeny(c, client(Codex)); denied {
		c.line.Advice = advice
		return Result{Stdout: Deny(reason)}
	}
	return Result{}
}
