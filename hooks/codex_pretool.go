package hooks

// codexPreToolUse refuses a Codex apply_patch (its own tool, or the
// shell form) that adds, changes, deletes or moves a file under another
// agent's active exclusive reservation, with the reason Claude Code's
// pre-tool-use gives. Codex 0.169 honours the deny as Claude Code's
// hookSpecificOutput and hands the reason to the model as the tool's
// output. A patch whose folder it cannot tell, or a call whose input it
// could not read whole (edit_payload.go), is refused too when another
// agent holds an exclusive reservation (undecided.go). Anything else
// passes silently: Codex rejects a bare allow.
func codexPreToolUse(c *call) Result {
	if tool := c.p.ToolName; c.opt.payloadCut != "" && (tool == "" || tool == "apply_patch" || tool == "Bash") {
		if reason, denied := undecidedDeny(c, unreadEdit(tool, c.opt.payloadCut), bigRetry); denied {
			c.line.Advice = "undecided"
			return Result{Stdout: Deny(reason)}
		}
		return Result{}
	}
	patch, dir, ok, why := codexPatch(c.p.ToolName, c.p.Input().Command, c.p.Cwd)
	if !ok {
		return Result{}
	}
	if why != "" {
		if reason, denied := undecidedDeny(c, why, shellRetry); denied {
			c.line.Advice = "undecided"
			return Result{Stdout: Deny(reason)}
		}
		return Result{}
	}
	for _, path := range PatchPaths(patch) {
		if reason, denied := reservedFor(c, path, dir); denied {
			c.line.Advice = "reserved"
			return Result{Stdout: Deny(reason)}
		}
	}
	return Result{}
}
