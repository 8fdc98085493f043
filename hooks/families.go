package hooks

// Hook families: the harnesses `st hooks` knows.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	Pi         = "pi"
)
