package hooks

import (
	"strconv"
	"strings"
)

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

// The subagent gate: when config.yaml names a subagent_gate command,
// SubagentStop asks it whether the subagent did the work or only
// returned a plan, with the stop judge's contract (stop_judge.go: JSON
// on stdin, a probability on stdout, the same runner and time bounds);
// above stop_nudge_threshold the subagent is sent back to work, once per
// subagent. A subagent that failed, one that goes on after another
// hook's block (stop_hook_active), a judge that fails or runs out of
// time: the subagent ends as it is (fail open). The SubagentStop line
// records the judge's answer (Judge) and, when it sent the subagent
// back, Advice "gate": events.Subagents then counts the subagent as
// running until its next SubagentStop.

// gateMark is in every send-back, naming who sent it.
const gateMark = "st's subagent gate"

// gateText is what a sent-back subagent goes on with.
func gateText(p float64) string {
	return "Your report reads as a plan, not as work done (" + gateMark + ": " + strconv.FormatFloat(p, 'f', 2, 64) +
		"). Do the work now with your tools, then report what you did and what it showed; if you cannot do it, say why."
}

// gateSubagent decides whether SubagentStop sends the subagent back: the
// text to go on with, or "" to let it end.
func gateSubagent(c *call) string {
	cmd := c.opt.Config.SubagentGate
	p, ev := &c.p, c.line
	if cmd == "" || c.t == nil || ev.Error != "" || p.StopHookActive || p.AgentID == "" {
		return ""
	}
	if wasGated(c.t, c.opt.Agent, p.SessionID, p.AgentID) {
		ev.Judge = "spent"
		return ""
	}
	task, _ := lastPrompt(p.AgentTranscriptPath)
	prob, verdict := runJudge(c, cmd, judgeInput{Prompt: task, LastAssistantMessage: p.LastAssistantMessage,
		SessionID: p.SessionID, Cwd: p.Cwd, AgentID: p.AgentID, AgentType: p.AgentType})
	ev.Judge = verdict
	if verdict == "failed" || verdict == "timeout" || prob <= c.opt.Config.StopNudgeThreshold {
		return ""
	}
	// Unrecorded (an error), the subagent is not sent back: at most once.
	if sent, _ := markGated(c.ctx, c.t, c.opt.Agent, p.SessionID, p.AgentID); !sent {
		return ""
	}
	ev.Advice = "gate"
	return gateText(prob)
}
