package hooks

import (
	"bytes"
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sha256"
)

// The stop judge: when config.yaml names a stop_judge command, Stop asks
// it whether the agent ended its turn early ("next I'll do X") and, above
// stop_nudge_threshold, continues the turn with one line of nudge. Once
// per stop chain (the Stop that ends a nudged continuation is left
// alone), at most maxNudges times per prompt, never when the agent waits
// on a human (a notification nothing answered, or a reply ending in a
// question), and never when the judge fails, prints no probability or
// outlasts its time, which counts inside the hook's budget (fail open).
//
// The judge reads one JSON object on stdin, {"prompt", "last_assistant_message",
// "session_id", "cwd"}, and prints a probability between 0 and 1. The
// subagent gate (subagent.go) runs its judge the same way, adding the
// subagent's "agent_id" and "agent_type".

// maxNudges is how many times one prompt's turn may be nudged.
const maxNudges = 3

// judgeWait bounds the judge's run; the hook's deadline, less
// judgeReserve for the event line, bounds it too.
const (
	judgeWait    = 1500 * time.Millisecond
	judgeReserve = 250 * time.Millisecond
)

// maxJudgeOutput bounds what is read of the judge's stdout.
const maxJudgeOutput = 4 << 10

// judgeInput is what the judge reads on stdin.
type judgeInput struct {
	Prompt               string `json:"prompt"`
	LastAssistantMessage string `json:"last_assistant_message"`
	SessionID            string `json:"session_id"`
	Cwd                  string `json:"cwd"`
	AgentID              string `json:"agent_id,omitempty"`
	AgentType            string `json:"agent_type,omitempty"`
}

// nudgeMark is in every nudge, so a nudge is never taken for a prompt.
const nudgeMark = "st's stop judge"

// nudgeText is the one line a nudge continues the turn with.
func nudgeText(p float64) string {
	return "You ended your turn with work still to do (" + nudgeMark + ": " + strconv.FormatFloat(p, 'f', 2, 64) +
		"). Go on with the next step now; end the turn only when the task is done or you need the user."
}

// judgeStop decides whether Stop nudges the turn on: the nudge's text,
// or "" to let the turn end. It records the judge's answer (or why it
// was not asked) on the event line and counts nudges in the session's
// state. c.line.Judge stays empty when no judge is configured.
func judgeStop(c *call) string {
	cmd := c.opt.Config.StopJudge
	if cmd == "" || c.t == nil {
		return ""
	}
	p, ev := &c.p, c.line
	prompt, promptKey := lastPrompt(p.TranscriptPath)
	if id := promptID(p.Raw); id != "" {
		promptKey = id
	}
	// Once per stop chain: the Stop ending a continuation is left alone.
	chained := p.StopHookActive
	var count int
	_ = UpdateState(c.ctx, c.t, c.opt.Agent, p.SessionID, func(s *State) bool { // best effort: the hook answers whether or not its state is saved
		changed := false
		if s.NudgePrompt != promptKey { // a new prompt: a new count, no chain
			s.NudgePrompt, s.Nudges, s.NudgeChain = promptKey, 0, false
			changed = true
		}
		count = s.Nudges
		if s.NudgeChain {
			chained, s.NudgeChain = true, false
			changed = true
		}
		return changed
	})
	switch {
	case chained:
		return ""
	case count >= maxNudges:
		ev.Judge = "spent"
		return ""
	case waitsOnHuman(c):
		ev.Judge = "waiting"
		return ""
	}
	prob, verdict := runJudge(c, cmd, judgeInput{Prompt: prompt, LastAssistantMessage: p.LastAssistantMessage, SessionID: p.SessionID, Cwd: p.Cwd})
	ev.Judge = verdict
	if verdict == "failed" || verdict == "timeout" || prob <= c.opt.Config.StopNudgeThreshold {
		return ""
	}
	nudged := false
	ctx, cancel := c.opt.lockCtx() // the judge may have outlasted the first lock wait
	defer cancel()
	_ = UpdateState(ctx, c.t, c.opt.Agent, p.SessionID, func(s *State) bool { // best effort: the hook answers whether or not its state is saved
		if s.NudgePrompt != promptKey {
			s.NudgePrompt, s.Nudges = promptKey, 0
		}
		if s.Nudges >= maxNudges {
			return false
		}
		s.Nudges++
		s.NudgeChain, nudged = true, true
		return true
	})
	if !nudged {
		return ""
	}
	ev.Advice = "nudge"
	return nudgeText(prob)
}

// waitsOnHuman reports whether the agent waits on a human: its session
// ends in a notification nothing answered (attention's definition), or
// its reply ends in a question to the user.
func waitsOnHuman(c *call) bool {
	if strings.HasSuffix(strings.TrimSpace(c.p.LastAssistantMessage), "?") {
		return true
	}
	recent, _ := events.Tail(c.t, c.opt.Agent, c.p.SessionID, 8<<10)
	_, waiting := events.WaitingOn(recent)
	return waiting
}

// runJudge runs the judge through the shell with in on stdin, within
// what the hook's budget leaves, and reads its probability. verdict is
// the probability as text, or "failed" (it exited non-zero, printed no
// number in [0, 1], or could not start) or "timeout".
func runJudge(c *call, command string, in judgeInput) (prob float64, verdict string) {
	wait := cmp.Or(c.opt.judgeWait, judgeWait)
	if !c.opt.deadline.IsZero() {
		wait = min(wait, time.Until(c.opt.deadline)-judgeReserve)
	}
	if wait <= 0 {
		return 0, "timeout"
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	stdin, _ := json.Marshal(in)
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdin = bytes.NewReader(stdin)
	if fi, err := os.Stat(in.Cwd); err == nil && fi.IsDir() {
		cmd.Dir = in.Cwd // the project's folder, when it is one here
	}
	var out limitedBuffer
	cmd.Stdout = &out
	// Its own process group, so that a timeout ends whatever the shell
	// started too, and the hook never waits on a pipe a child holds.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 50 * time.Millisecond
	err := cmd.Run()
	if ctx.Err() != nil {
		return 0, "timeout"
	}
	if err != nil {
		return 0, "failed"
	}
	f := strings.Fields(string(out.b))
	if len(f) == 0 {
		return 0, "failed"
	}
	prob, err = strconv.ParseFloat(f[0], 64)
	if err != nil || !(prob >= 0 && prob <= 1) {
		return 0, "failed"
	}
	return prob, strconv.FormatFloat(prob, 'f', -1, 64)
}

// limitedBuffer keeps the first maxJudgeOutput bytes written to it.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxJudgeOutput - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// promptID is the payload's prompt_id (Claude Code names the prompt a
// Stop ends), "" when it has none.
func promptID(raw []byte) string {
	var v struct {
		PromptID string `json:"prompt_id"`
	}
	_ = json.Unmarshal(raw, &v) // absent or malformed: the zero value is the answer
	return v.PromptID
}

// promptReach is how far from a transcript's end lastPrompt looks, in
// growing reads: a long turn's request lines (1 to 35 KB a step in
// Claude Code) push the prompt far from the end.
var promptReach = []int64{TranscriptTail, 1 << 20, 8 << 20}

// lastPrompt is the user's latest prompt in a Claude Code transcript or a
// Codex rollout, and a key naming it for the per-prompt count: the id the
// client gave the prompt when it records one, else a hash of its text
// (the state keeps no prompt).
func lastPrompt(path string) (prompt, key string) {
	if path == "" {
		return "", ""
	}
	for _, reach := range promptReach {
		tail, err := ReadTranscriptTail(path, reach)
		if err != nil {
			return "", ""
		}
		for line := range linesNewestFirst(tail) {
			// A nudge the client recorded as the user's is not a new prompt.
			if text, id, ok := userText(line); ok && !strings.Contains(text, nudgeMark) {
				if id == "" {
					sum := sha256.Sum256([]byte(text))
					id = hex.EncodeToString(sum[:8])
				}
				return text, id
			}
		}
		if int64(len(tail)) < reach {
			break // the whole transcript was read
		}
	}
	return "", ""
}

// userText is the text of a line holding a prompt the user typed, and
// the prompt's id when the line has one:
//   - Claude Code's {"type":"last-prompt","lastPrompt":…}, which it
//     repeats near the transcript's end, and its
//     {"type":"user","message":{"content":…}} (not a tool result, not a
//     meta line);
//   - Codex's event_msg item_completed of a UserMessage item (its id),
//     and the event_msg user_message of older Codex versions.
func userText(line []byte) (text, id string, ok bool) {
	if !bytes.Contains(line, []byte(`"user`)) && !bytes.Contains(line, []byte(`"last-prompt"`)) && !bytes.Contains(line, []byte(`"UserMessage"`)) {
		return "", "", false
	}
	var v struct {
		Type       string `json:"type"`
		IsMeta     bool   `json:"isMeta"`
		LastPrompt string `json:"lastPrompt"`
		Message    struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		Payload struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Item    struct {
				Type    string          `json:"type"`
				ID      string          `json:"id"`
				Content json.RawMessage `json:"content"`
			} `json:"item"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &v) != nil {
		return "", "", false
	}
	switch {
	case v.Type == "last-prompt":
		return v.LastPrompt, "", v.LastPrompt != ""
	case v.Type == "event_msg" && v.Payload.Type == "user_message":
		return v.Payload.Message, "", v.Payload.Message != ""
	case v.Type == "event_msg" && v.Payload.Type == "item_completed" && v.Payload.Item.Type == "UserMessage":
		text, ok := contentText(v.Payload.Item.Content)
		return text, v.Payload.Item.ID, ok
	case v.Type != "user" || v.IsMeta || v.Message.Role != "user":
		return "", "", false
	}
	text, ok = contentText(v.Message.Content)
	return text, "", ok
}

// contentText is the text of a message's content: a string, or its text
// parts joined by lines; ok is false when it has none or holds a tool
// result.
func contentText(content json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s, s != ""
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &parts) != nil {
		return "", false
	}
	var texts []string
	for _, pt := range parts {
		if pt.Type == "tool_result" {
			return "", false
		}
		if pt.Type == "text" && pt.Text != "" {
			texts = append(texts, pt.Text)
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

// codexJudge is the stop judge for Codex's Stop, which continues a turn
// with {"decision":"block","reason":…} (the reason is the next prompt):
// the same decision as Claude Code's, from the payload its event line
// reads.
func codexJudge(opt Options) Result {
	if opt.Config.StopJudge == "" {
		return Result{}
	}
	c := &call{opt: opt, payload: opt.logPayload(), now: opt.now()}
	c.p, _ = ParsePayload(c.payload)
	c.line = NewEvent("Stop", &c.p, c.now)
	t, err := fsutil.Open(opt.Root)
	if err != nil {
		return Result{}
	}
	defer t.Close()
	ctx, cancel := opt.lockCtx()
	defer cancel()
	c.t, c.ctx = t, ctx
	nudge := judgeStop(c)
	res := Result{}
	if nudge != "" {
		res = codexJSON(orderedStop{"block", nudge})
	}
	if c.line.Advice != "" || c.line.Judge != "" {
		res.decided = &decision{advice: c.line.Advice, judge: c.line.Judge}
	}
	return res
}
