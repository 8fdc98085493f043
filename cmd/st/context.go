package main

import "fmt"

// contextCmd groups the restart-context verbs.
type contextCmd struct {
	Read   contextReadCmd   `cmd:"" reads:"ST_ROOT ST_AGENT" help:"print now.md, the decisions log, or both"`
	Write  contextWriteCmd  `cmd:"" reads:"ST_ROOT ST_AGENT ST_MAX_MESSAGE_BYTES XDG_STATE_HOME ST_HOST" help:"replace now.md with stdin (at most the maximum message size)"`
	Append contextAppendCmd `cmd:"" reads:"ST_ROOT ST_AGENT XDG_STATE_HOME" help:"record one decision and why in decisions/"`
}

// contextGroup is how `st context` reacts to a missing or unknown sub-verb.
var contextGroup = group{
	noVerbCode:  exitUsage,
	unknown:     func(_ *app, v string) string { return fmt.Sprintf("st context: unknown subcommand: %s\n\n", v) },
	unknownCode: exitUsage,
}

// The verbs' own --help prints the group usage (upstream rejects it).

// Help is context's paragraph.
func (contextCmd) Help() string {
	return `Restart context is what an agent needs to pick up after a restart or a
compaction: now.md says what it is doing right now (rewritten as work
moves), decisions/ keeps one file per decision with its reason (only ever
appended). The session-start hooks feed both back to the agent.`
}

func (contextReadCmd) examples() []example {
	return []example{
		{"what you were doing", "st context read"},
		{"bob's now.md and every decision", "st context read bob --full"},
		{"the same as one JSON object (identity, file, text, absent)", "st context read bob --full --json"},
	}
}

func (contextWriteCmd) examples() []example {
	return []example{
		{"replace your now.md", "printf '# now\\nmigrating the billing tables\\n' | st context write"},
		{"write it from a file", "st context write < now.md"},
	}
}

func (contextAppendCmd) examples() []example {
	return []example{
		{"record a decision", "st context append --decision 'keep yaml.v3' --why 'the hand reader misread anchors'"},
		{"record one for another agent", "st context append bob --decision 'pause the rollout' --why 'error rate doubled'"},
	}
}
