package hooks

import (
	"bytes"
	"path/filepath"
	"strconv"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// The Claude Code events beyond session boundaries. Each works
// on its payload and the open store, says what it decided on its event
// line (ev.Advice) and fails open: a failing part is only dropped.

func subagentStart(c *call) Result {
	c.line.Advice = "contract"
	return Result{Stdout: AdditionalContext(c.line.Event, SubagentContract(c.opt.Config))}
}

func stop(c *call) Result {
	_ = ClearRetry(c.ctx, c.t, c.opt.Agent, c.p.SessionID) // best effort: a stale retry record only delays the next one
	RestoreStatus(c.ctx, c.t, c.opt.Agent, c.p.SessionID)
	var stamp string
	if c.opt.Timestamp {
		stamp = "⏱ " + c.now.Local().Format("15:04:05")
	}
	if news := Arrivals(c.ctx, c.t, c.opt.Agent, c.p.SessionID, c.now); news != "" {
		c.line.Advice = "inbox"
		return Result{Stdout: StopContext(news, stamp)}
	}
	if nudge := judgeStop(c); nudge != "" { // stop_judge.go
		return Result{Stdout: StopContext(nudge, stamp)}
	}
	if stamp != "" {
		return Result{Stdout: SystemMessage(stamp)}
	}
	return Result{}
}

func sessionEnd(c *call) Result {
	_ = ClearRetry(c.ctx, c.t, c.opt.Agent, c.p.SessionID) // best effort: a stale retry record only delays the next one
	if layout.EnsureAgent(c.opt.Root, c.opt.Agent) == nil {
		// Without syncs, as st-mcp's exit writes it: a crash of the machine
		// that loses it ended the session too, and a stale status reads true.
		_ = status.SetAtExit(c.t, c.opt.Agent, "offline") // best effort: a status not written reads as stale, which is the truth
	}
	return Result{}
}

func userPromptSubmit(c *call) Result {
	ctx, t, p, opt, ev := c.ctx, c.t, &c.p, c.opt, c.line
	_ = ClearRetry(ctx, t, opt.Agent, p.SessionID) // best effort: a stale retry record only delays the next one
	if (opt.Knobs.CapturePrompts || opt.Config.CapturePrompts) && !opt.Knobs.HookChild && len(p.Raw) > 0 {
		_, _ = Spool(t, opt.Agent, p.Raw, opt.Spool, opt.now()) // best effort: capture is opt-in and never holds up the prompt
	}
	now := opt.now()
	tokens, haveTokens := c.replyTokens, c.haveReply
	var nowMod time.Time
	if fi, err := t.Stat(agentctx.NowPath(opt.Agent)); err == nil {
		nowMod = fi.ModTime()
	}
	var log promptScan
	_ = events.EachBack(t, events.Path(opt.Agent, p.SessionID), events.TailBytes, log.keep, log.add) // best effort: an unread log is an empty one
	if log.haveFill && (!haveTokens || log.fill > tokens) {
		tokens, haveTokens = log.fill, true
	}
	work := log.work.real()
	pushed := ChannelDeliveries(p.Prompt, opt.Agent)
	var text string
	_ = changeState(ctx, t, opt.Agent, p.SessionID, func(s *State) bool { // best effort: the hook answers whether or not its state is saved
		noted := s.noteChannel(pushed)
		if haveTokens {
			if adv, level := ContextAdvice(tokens, opt.Config.ContextWindow, s.ContextWarned); adv != "" {
				text, s.ContextWarned = adv, level
				s.FlushRemindedMS = now.UnixMilli() // it asks for a flush too
				ev.Advice = "context-" + strconv.Itoa(level)
				return true
			}
		}
		if adv := FlushReminder(now, nowMod, opt.Knobs.FlushRemind, s.FlushRemindedMS, work); adv != "" {
			text, s.FlushRemindedMS = adv, now.UnixMilli()
			ev.Advice = "flush"
			return true
		}
		return noted
	})
	if text == "" {
		return Result{}
	}
	return Result{Stdout: AdditionalContext("UserPromptSubmit", text)}
}

func preToolUse(c *call) Result {
	p, opt, ev := &c.p, c.opt, c.line
	in := p.Input()
	if len(opt.Config.Deny) > 0 {
		if reason, denied := CompileDeny(opt.Config.Deny).Match(p.ToolName, in); denied {
			ev.Advice = "deny"
			return Result{Stdout: Deny(reason)}
		}
	}
	if reason, advice, denied := writesDeny(c, client(ClaudeCode)); denied {
		ev.Advice = advice
		return Result{Stdout: Deny(reason)}
	}
	if p.ToolName != "Read" || in.FilePath == "" || in.Offset != nil || in.Limit != nil {
		return Result{}
	}
	path := in.FilePath
	if !filepath.IsAbs(path) && p.Cwd != "" {
		path = filepath.Join(p.Cwd, path)
	}
	if text := LargeRead(p.ToolName, in, FileSize(path), opt.Knobs.LargeRead); text != "" {
		ev.Advice = "large-read"
		return Result{Stdout: AdditionalContext("PreToolUse", text)}
	}
	return Result{}
}

func postToolUseFailure(c *call) Result {
	t, p, opt, ev := c.t, &c.p, c.opt, c.line
	var streak failStreak
	if streak.add(ev) {
		_ = events.EachBack(t, events.Path(opt.Agent, p.SessionID), events.TailBytes, nil, streak.add) // best effort: an unread log is an empty one
	}
	n := streak.n
	if text := ThrashAdvice(p.ToolName, n); text != "" {
		ev.Advice = "thrash"
		return Result{Stdout: AdditionalContext("PostToolUseFailure", text)}
	}
	return Result{}
}

func notification(c *call) Result {
	t, p, opt, ev := c.t, &c.p, c.opt, c.line
	if !NotifiesOperator(opt.Config, p.NotificationType) {
		return Result{}
	}
	to := opt.Config.Recipient(opt.Operator)
	if to == opt.Agent || !layout.ValidAgent(to) {
		return Result{}
	}
	subject, body := OperatorNote(opt.Agent, p)
	if _, err := sendNote(t, opt, to, message.Message{From: opt.Agent, Subject: subject, Body: []byte(body)}); err == nil {
		ev.Advice = "operator"
	}
	return Result{}
}

// sendNote delivers an operator message from the agent, creating the
// agent's own folders first as `st message send` would.
func sendNote(t *fsutil.Tree, opt Options, to string, m message.Message) (string, error) {
	if err := layout.EnsureAgent(opt.Root, opt.Agent); err != nil {
		return "", err
	}
	return inbox.Send(t, to, m, opt.now())
}

// subagentStop records the subagent's end (its line carries the first
// line of its final reply, and error when it failed) and runs the
// subagent gate (subagent.go).
func subagentStop(c *call) Result {
	if text := gateSubagent(c); text != "" {
		return Result{Stdout: SubagentStopContext(text)}
	}
	return Result{}
}

// lastRecordedFill is the context fill the newest event line recorded
// since the last compaction. Claude Code writes its transcript behind
// the turn: a prompt sent right after a turn ended can find the last
// reply not yet in it, while the turn's Stop line, which waits for that
// reply, already holds its fill.
func lastRecordedFill(lines []events.Event) (int64, bool) {
	var s promptScan
	for i := len(lines) - 1; i >= 0; i-- {
		if !s.add(&lines[i]) {
			break
		}
	}
	return s.fill, s.haveFill
}

// promptScan is what a prompt's hook learns from its session's log,
// read newest first (events.EachBack) until both are known: the newest
// recorded fill (lastRecordedFill) and whether the session did real
// work (RealWork). The newest lines usually tell both, and the rest of
// the log is then neither read nor decoded.
type promptScan struct {
	fill     int64
	haveFill bool
	fillDone bool
	work     workScan
}

// keep says whether a line can change the answers, before it is
// decoded: once the work is known, only a line recording a fill or a
// compaction can (st writes both words as they are, never escaped).
func (s *promptScan) keep(line []byte) bool {
	return !s.work.real() || bytes.Contains(line, []byte(`"ctx_tokens"`)) || bytes.Contains(line, []byte("PreCompact"))
}

// add takes the next older event; false once nothing older can change
// the answers.
func (s *promptScan) add(e *events.Event) bool {
	switch {
	case s.fillDone:
	case e.Event == "PreCompact":
		s.fillDone = true
	case e.CtxTokens > 0 && e.AgentID == "":
		s.fill, s.haveFill, s.fillDone = e.CtxTokens, true, true
	}
	s.work.add(e)
	return !s.fillDone || !s.work.real()
}
