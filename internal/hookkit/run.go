package hookkit

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// Result is what a hook prints and how it exits.
type Result struct {
	Stdout []byte
	Stderr []byte
	Code   int
}

// Env is everything a hook takes besides its payload, read by the
// caller: the store, the acting agent ("" when none), the clock, the
// config and knobs, and the host details stored with captured prompts.
type Env struct {
	Root     string
	Agent    string
	Now      func() time.Time
	Config   Config
	Knobs    Knobs
	Operator string // ST_OPERATOR
	Spool    SpoolEnv
	Start    time.Time // when the hook started, for hook_us

	// Timestamp is stop --timestamp.
	Timestamp bool
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// Events handled here, by `st hook <event>` name.
const (
	UserPromptSubmit   = "user-prompt-submit"
	SubagentStart      = "subagent-start"
	PreToolUse         = "pre-tool-use"
	PostToolUse        = "post-tool-use"
	PostToolUseFailure = "post-tool-use-failure"
	Notification       = "notification"
	Stop               = "stop"
	SessionEnd         = "session-end"
)

// Handled lists the events Run handles, in usage order.
var Handled = []string{UserPromptSubmit, SubagentStart, PreToolUse, PostToolUse, PostToolUseFailure, Notification, Stop, SessionEnd}

// LockWait bounds the locks a hook waits for (the event log's append
// lock, the session state): long enough that a burst of parallel hooks
// on a loaded machine all get their turn, inside the 2 s default budget.
const LockWait = 1500 * time.Millisecond

func hookCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), LockWait)
}

// Run runs one of the Handled hooks on its stdin payload: it decides the
// output, does the side effects (state, operator message, status) and
// appends the event line. Any failure only drops that part: the hook
// still answers and exits 0.
func Run(stEvent string, stdin []byte, env Env) Result {
	p, _ := ParsePayload(stdin)
	name := EventName(stEvent, &p)
	now := env.now()
	ev := NewEvent(name, &p, now)
	if env.Agent == "" {
		return Result{} // no agent: nowhere to record, nothing to say
	}
	t, err := fsutil.Open(env.Root)
	if err != nil && createsRoot[stEvent] {
		t, err = fsutil.OpenOrCreate(env.Root)
	}
	if err != nil {
		return Result{}
	}
	defer t.Close()
	ctx, cancel := hookCtx()
	defer cancel()
	var res Result
	switch stEvent {
	case UserPromptSubmit:
		res = userPromptSubmit(ctx, t, &p, env, ev)
	case SubagentStart:
		res.Stdout = AdditionalContext(name, SubagentContract(env.Config))
		ev.Advice = "contract"
	case PreToolUse:
		res = preToolUse(&p, env, ev)
	case PostToolUseFailure:
		res = postToolUseFailure(t, &p, env, ev)
	case Notification:
		notification(t, &p, env, ev)
	case Stop:
		ClearRetry(ctx, t, env.Agent, p.SessionID)
		var stamp string
		if env.Timestamp {
			stamp = "⏱ " + now.Local().Format("15:04:05")
		}
		if news := Arrivals(ctx, t, env.Agent, p.SessionID, now); news != "" {
			res.Stdout = Block(news, stamp)
			ev.Advice = "inbox"
		} else if stamp != "" {
			res.Stdout = SystemMessage(stamp)
		}
	case SessionEnd:
		ClearRetry(ctx, t, env.Agent, p.SessionID)
		if layout.EnsureAgent(env.Root, env.Agent) == nil {
			status.Set(t, env.Agent, "offline")
		}
	}
	Append(ctx, t, env, ev)
	return res
}

// createsRoot lists the events that may create the store: they send a
// message, set a status or spool a prompt.
var createsRoot = map[string]bool{Notification: true, SessionEnd: true, UserPromptSubmit: true}

// Append stamps the hook's duration on ev and appends it to the agent's
// event log; errors are dropped (the log must never fail a hook). Only
// an existing agent folder gets a log: a hook never creates an agent
// just to record an event.
func Append(ctx context.Context, t *fsutil.Tree, env Env, ev *events.Event) {
	if !t.IsDir(env.Agent) {
		return
	}
	if !env.Start.IsZero() {
		ev.HookUS = time.Since(env.Start).Microseconds()
	}
	events.Append(ctx, t, env.Agent, ev)
}

// Record appends the event line for a hook handled elsewhere (the
// session-boundary hooks): payload is its stdin when it read one, else
// nil and the session comes from session (CLAUDE_CODE_SESSION_ID). It
// creates nothing but the agent's events folder.
func Record(stEvent string, payload []byte, session string, env Env) {
	if env.Agent == "" {
		return
	}
	p, _ := ParsePayload(payload)
	if p.SessionID == "" {
		p.SessionID = session
	}
	ev := NewEvent(EventName(stEvent, &p), &p, env.now())
	t, err := fsutil.Open(env.Root)
	if err != nil {
		return
	}
	defer t.Close()
	ctx, cancel := hookCtx()
	defer cancel()
	if stEvent == "session-start" && t.IsDir(env.Agent) {
		start := env.Start
		if start.IsZero() {
			start = env.now()
		}
		StartArrivals(ctx, t, env.Agent, p.SessionID, start)
	}
	Append(ctx, t, env, ev)
}

func userPromptSubmit(ctx context.Context, t *fsutil.Tree, p *Payload, env Env, ev *events.Event) Result {
	ClearRetry(ctx, t, env.Agent, p.SessionID)
	if (env.Knobs.CapturePrompts || env.Config.CapturePrompts) && !env.Knobs.HookChild && len(p.Raw) > 0 {
		Spool(t, env.Agent, p.Raw, env.Spool, env.now())
	}
	now := env.now()
	var tokens int64
	var haveTokens bool
	if p.TranscriptPath != "" {
		if tail, err := ReadTranscriptTail(p.TranscriptPath, TranscriptTail); err == nil {
			tokens, haveTokens = ContextTokens(tail)
		}
	}
	var nowMod time.Time
	if fi, err := t.Stat(agentctx.NowPath(env.Agent)); err == nil {
		nowMod = fi.ModTime()
	}
	recent, _ := events.Tail(t, env.Agent, p.SessionID, events.TailBytes)
	work := RealWork(recent)
	var text string
	UpdateState(ctx, t, env.Agent, p.SessionID, func(s *State) bool {
		if haveTokens {
			if adv, level := ContextAdvice(tokens, env.Config.ContextWindow, s.ContextWarned); adv != "" {
				text, s.ContextWarned = adv, level
				s.FlushRemindedMS = now.UnixMilli() // it asks for a flush too
				ev.Advice = "context-" + strconv.Itoa(level)
				return true
			}
		}
		if adv := FlushReminder(now, nowMod, env.Knobs.FlushRemind, s.FlushRemindedMS, work); adv != "" {
			text, s.FlushRemindedMS = adv, now.UnixMilli()
			ev.Advice = "flush"
			return true
		}
		return false
	})
	if text == "" {
		return Result{}
	}
	return Result{Stdout: AdditionalContext("UserPromptSubmit", text)}
}

func preToolUse(p *Payload, env Env, ev *events.Event) Result {
	in := p.Input()
	if len(env.Config.Deny) > 0 {
		if reason, denied := CompileDeny(env.Config.Deny).Match(p.ToolName, in); denied {
			ev.Advice = "deny"
			return Result{Stdout: Deny(reason)}
		}
	}
	if p.ToolName != "Read" || in.FilePath == "" || in.Offset != nil || in.Limit != nil {
		return Result{}
	}
	path := in.FilePath
	if !filepath.IsAbs(path) && p.Cwd != "" {
		path = filepath.Join(p.Cwd, path)
	}
	if text := LargeRead(p.ToolName, in, FileSize(path), env.Knobs.LargeRead); text != "" {
		ev.Advice = "large-read"
		return Result{Stdout: AdditionalContext("PreToolUse", text)}
	}
	return Result{}
}

func postToolUseFailure(t *fsutil.Tree, p *Payload, env Env, ev *events.Event) Result {
	recent, _ := events.Tail(t, env.Agent, p.SessionID, events.TailBytes)
	n := FailStreak(append(recent, *ev))
	if text := ThrashAdvice(p.ToolName, n); text != "" {
		ev.Advice = "thrash"
		return Result{Stdout: AdditionalContext("PostToolUseFailure", text)}
	}
	return Result{}
}

func notification(t *fsutil.Tree, p *Payload, env Env, ev *events.Event) {
	if !NotifiesOperator(env.Config, p.NotificationType) {
		return
	}
	to := env.Config.Recipient(env.Operator)
	if to == env.Agent || !layout.ValidAgent(to) {
		return
	}
	subject, body := OperatorNote(env.Agent, p)
	if _, err := sendNote(t, env, to, message.Message{From: env.Agent, Subject: subject, Body: []byte(body)}); err == nil {
		ev.Advice = "operator"
	}
}

// sendNote delivers an operator message from the agent, creating the
// agent's own folders first as `st message send` would.
func sendNote(t *fsutil.Tree, env Env, to string, m message.Message) (string, error) {
	if err := layout.EnsureAgent(env.Root, env.Agent); err != nil {
		return "", err
	}
	return inbox.Send(t, to, m, env.now())
}

// RetryPoll is how often a sleeping retry checks whether it was
// superseded.
const RetryPoll = time.Second

// StopFailureRetry is `st hook stop-failure --retry`, run after the
// normal stop-failure policy: for a transient failure it records the
// attempt, tells the operator at the alert attempt or when giving up,
// waits the backoff and asks the model to retry (exit 2 and one stderr
// line, for asyncRewake); a retry superseded while it waits exits 0
// silently. Any other failure ends the session's streak. It also appends
// the StopFailure event line.
func StopFailureRetry(stdin []byte, env Env) Result {
	if env.Agent == "" {
		return Result{}
	}
	p, _ := ParsePayload(stdin)
	failType := p.FailureType()
	ev := NewEvent("StopFailure", &p, env.now())
	t, err := fsutil.OpenOrCreate(env.Root)
	if err != nil {
		return Result{}
	}
	defer t.Close()
	ctx, cancel := hookCtx()
	defer cancel()
	if !Transient(failType) {
		ClearRetry(ctx, t, env.Agent, p.SessionID)
		Append(ctx, t, env, ev)
		return Result{}
	}
	streak, err := BeginRetry(ctx, t, env.Agent, p.SessionID, failType, env.now())
	if err != nil {
		Append(ctx, t, env, ev)
		return Result{}
	}
	ev.Attempt = streak.Attempt
	plan := PlanFor(streak.Attempt)
	to := env.Config.Recipient(env.Operator)
	switch plan {
	case PlanRetryAndAlert:
		subject, body := AlertNote(env.Agent, failType, streak.Attempt)
		if to != env.Agent && layout.ValidAgent(to) {
			sendNote(t, env, to, message.Message{From: env.Agent, Subject: subject, Body: []byte(body)})
		}
		ev.Advice = "retry-alert"
	case PlanGiveUp:
		subject, body := GiveUpNote(env.Agent, failType)
		if to != env.Agent && layout.ValidAgent(to) {
			sendNote(t, env, to, message.Message{From: env.Agent, Subject: subject, Priority: "high", Body: []byte(body)})
		}
		ev.Advice = "retry-give-up"
	case PlanRetry:
		ev.Advice = "retry"
	}
	Append(ctx, t, env, ev)
	if plan != PlanRetry && plan != PlanRetryAndAlert {
		return Result{}
	}
	delay := Backoff(streak.Attempt, env.Knobs.RetryBase, env.Knobs.RetryMax, rand.Float64())
	poll := min(RetryPoll, max(delay/10, 10*time.Millisecond))
	if Wait(context.Background(), delay, poll, func() bool {
		return Superseded(t, env.Agent, p.SessionID, streak.Token)
	}) {
		return Result{}
	}
	return Result{Stderr: []byte(RetryLine(failType, streak.Attempt)), Code: 2}
}

// DigestFor builds the pre-compact digest for agent from its session
// logs written since now.md's last write (since; zero when now.md was
// never written: the latest session log only).
func DigestFor(t *fsutil.Tree, agent string, since time.Time) string {
	if t == nil {
		return ""
	}
	var rels []string
	if since.IsZero() {
		if rel, _, ok := events.Latest(t, agent); ok {
			rels = []string{rel}
		}
	} else if names, err := t.ReadDirNames(events.Dir(agent)); err == nil {
		for _, name := range names {
			if events.IsLogName(name) {
				rels = append(rels, events.Dir(agent)+"/"+name)
			}
		}
	}
	var all []events.Event
	for _, rel := range rels {
		if fi, err := t.Lstat(rel); err != nil || fi.ModTime().Before(since) {
			continue
		}
		evs, err := events.TailFile(t, rel, DigestBytes)
		if err != nil {
			continue
		}
		all = append(all, evs...)
	}
	sortEvents(all)
	return Digest(all, since)
}

// sortEvents orders events by time, keeping each file's order for
// equal stamps.
func sortEvents(evs []events.Event) {
	slices.SortStableFunc(evs, func(a, b events.Event) int { return strings.Compare(a.TS, b.TS) })
}
