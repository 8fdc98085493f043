package hooks

import "strings"

// DefaultSubagentContract is the paragraph every subagent gets at its
// start unless the config's subagent_contract replaces it.
const DefaultSubagentContract = "Report contract for this subagent: your final answer must be concrete results, not impressions. " +
	"Give file paths with line numbers for every claim about code; list each command you ran with the relevant part of its output; " +
	"say what you verified and what you could not verify, and why; and say for each finding whether you read the code or ran it. " +
	"If you changed files, list every file you changed."

// SubagentContract is the text for SubagentStart's additionalContext.
func SubagentContract(c Config) string {
	if s := strings.TrimSpace(c.SubagentContract); s != "" {
		return s
	}
	return DefaultSubagentContract
}
