package hooks

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/stackstart"
	"github.com/smalltalk-go/st/reserve"
)

// Result is what a hook prints and how it exits.
type Result struct {
	Stdout []byte
	Stderr []byte
	Code   int

	// decided is what a hook whose line the runner appends after it
	// (not onStore) decided, for that line: codex-stop's judge.
	decided *decision
}

// decision is what a hook decided, as its event line records it.
type decision struct{ advice, judge string }

// Options is everything a hook takes besides its payload: the resolved
// store, the clock, the event's flags, and the settings the caller read
// from the environment (raw ones are parsed by the hook that uses them).
type Options struct {
	Root  string // the store root, verbatim
	Agent string // the acting agent; "" when none is set or the name is invalid

	Now   func() time.Time
	Start time.Time // when the hook started, for the event line's hook_us

	JSON      bool // session-start --json: hookSpecificOutput on stdout, exit 0
	Inbox     bool // session-start --inbox: add an unread-inbox summary
	Timestamp bool // stop --timestamp: print the local time
	Retry     bool // stop-failure --retry: retry transient API errors

	HookTimeoutMS      string // ST_HOOK_TIMEOUT_MS
	RehydrateStaleS    string // ST_REHYDRATE_STALE_S
	PrecompactTimeoutS string // ST_PRECOMPACT_TIMEOUT_S
	PrecompactFreshS   string // ST_PRECOMPACT_FRESH_S
	StopFailureWindowS string // ST_STOPFAILURE_WINDOW_S
	Operator           string // ST_OPERATOR
	Session            string // CLAUDE_CODE_SESSION_ID, for hooks that read no payload
	ConfigDir          string // $ST_CONFIG, else $HOME/.config/smalltalk
	StateDir           string // $XDG_STATE_HOME, else $HOME/.local/state
	ContextBudget      string // ST_HOOK_CONTEXT_BUDGET (context_budget.go)
	FleetHost          string // ST_HOST, this machine's name in the fleet (brief.go)
	SyncStaleS         string // ST_SYNC_STALE_S, when a host's data counts as stale (brief.go)
	Knobs              Knobs
	Spool              SpoolEnv // stored with a captured prompt (Serve adds the host)
	// TraceBin finds st-trace, which session-end starts detached to send
	// the session as a trace when an OTLP endpoint is set; it returns ""
	// when st-trace is not installed. It is only called when an endpoint
	// is set: finding it looks through $PATH. OTelEnv are the OTEL_*
	// variables of the environment (config.yaml's otel: fills in the
	// ones missing).
	TraceBin func() string
	OTelEnv  map[string]string

	// ProblemNotes are the folders where a hook that cannot write to the
	// store leaves a note for the person's next command (store_problem.go).
	ProblemNotes []string

	// Config is config.yaml, which Serve loads for the hooks that read it.
	Config Config

	// Notices are the legacy-variable notices resolving root and agent
	// produced. They never reach a hook's stderr; pre-compact appends
	// them to its log.
	Notices []byte

	late *latePayload // stdin of a hook that reads no payload, for its event line

	// payloadCut says why an edit hook's payload, read thinned, may not
	// name every path it edits (edit_payload.go); "" when it does.
	payloadCut string

	// deadline ends the whole hook process (Serve: its start plus the
	// budget); every lock wait ends by it. Zero: no deadline.
	deadline time.Time
	// early keeps the hook's output once it is known, so that a hook that
	// answered but then waited too long to log its event line still
	// prints its answer when the deadline comes.
	early *earlyResult

	// TestPanic makes the hook panic at its start and TestDelay makes it
	// sleep first (pre-compact: inside its write), so tests can exercise
	// the recovery and the time budgets. Both are off in normal use.
	TestPanic bool
	TestDelay time.Duration
	// judgeWait replaces judgeWait in package tests (zero: judgeWait), so
	// that a judge slower than the first lock wait still answers in time
	// on a loaded machine.
	judgeWait time.Duration
}

func (o *Options) now() time.Time {
	if o.Now == nil {
		return time.Now()
	}
	return o.Now()
}

// hook is how the runner treats one event.
type hook struct {
	run func(*call) Result
	// after runs once the event line is appended: what reads the
	// finished log, such as session-end's trace export.
	after func(*call)

	readsPayload bool // the hook reads its stdin payload; the others never wait for it
	readsConfig  bool // the hook reads config.yaml

	// onStore marks the events beyond the session boundaries: they work on their payload and
	// the open store, need an agent (without one they say nothing and
	// log nothing), and their event line carries what they decided, so
	// it is appended when they end, within their budget. The others
	// (st-compat §7) work from the environment; the runner appends a
	// plain line for them after they end, whatever happened.
	onStore     bool
	createsRoot bool // onStore: the hook may create the store (it sends, sets a status or spools)

	// then runs after the hook without a time budget and appends its
	// own event line (stop-failure --retry waits out a backoff).
	then func(payload []byte, opt Options) Result
}

// hookFor returns how event runs; ok is false for an unknown event.
func hookFor(event string, retry bool) (h hook, ok bool) {
	switch event {
	case SessionStart:
		return hook{run: func(c *call) Result { return runSessionStart(c.opt) }, readsConfig: true}, true
	case PreCompact:
		return hook{run: func(c *call) Result { return runPreCompact(c.opt) }}, true
	case StopFailure:
		h := hook{run: func(c *call) Result { return runStopFailure(c.payload, c.opt) }, readsPayload: true, readsConfig: true}
		if retry {
			h.then = StopFailureRetry
		}
		return h, true
	case CodexSessionStart:
		return hook{run: func(c *call) Result { return runCodexSessionStart(c.opt, client(Codex)) }, readsConfig: true}, true
	case CodexStop:
		return hook{run: func(c *call) Result { return runCodexStop(c.opt, client(Codex)) }, readsConfig: true,
			after: exportCodexTrace}, true
	case CodexPreToolUse:
		return hook{run: codexPreToolUse, readsPayload: true, readsConfig: true, onStore: true}, true
	case UserPromptSubmit:
		return hook{run: userPromptSubmit, readsPayload: true, readsConfig: true, onStore: true, createsRoot: true}, true
	case SubagentStart:
		return hook{run: subagentStart, readsPayload: true, readsConfig: true, onStore: true}, true
	case SubagentStop:
		return hook{run: subagentStop, readsPayload: true, readsConfig: true, onStore: true}, true
	case PreToolUse:
		return hook{run: preToolUse, readsPayload: true, readsConfig: true, onStore: true}, true
	case PostToolUse:
		return hook{run: func(*call) Result { return Result{} }, readsPayload: true, onStore: true}, true // the line is all it does
	case PostToolUseFailure:
		return hook{run: postToolUseFailure, readsPayload: true, onStore: true}, true
	case Notification:
		return hook{run: notification, readsPayload: true, readsConfig: true, onStore: true, createsRoot: true}, true
	case Stop:
		return hook{run: stop, readsPayload: true, readsConfig: true, onStore: true}, true
	case SessionEnd:
		return hook{run: sessionEnd, after: exportTrace, readsPayload: true, readsConfig: true, onStore: true, createsRoot: true}, true
	case GitPreCommit:
		return hook{run: gitPreCommit}, true
	case GeminiSessionStart:
		return hook{run: func(c *call) Result { return runCodexSessionStart(c.opt, client(Gemini)) }, readsConfig: true}, true
	case GeminiAfterAgent:
		return hook{run: func(c *call) Result { return runCodexStop(c.opt, client(Gemini)) }, readsConfig: true}, true
	case GeminiBeforeTool:
		return hook{run: geminiBeforeTool, readsPayload: true, readsConfig: true, onStore: true}, true
	case GeminiNotification:
		return hook{run: geminiNotification, readsPayload: true, readsConfig: true, onStore: true, createsRoot: true}, true
	}
	return hook{}, false
}

// call is one run of an onStore hook: its decoded payload, its event
// line, the open store and the lock deadline.
type call struct {
	opt     Options
	payload []byte
	p       Payload
	line    *events.Event
	now     time.Time
	t       *fsutil.Tree
	ctx     context.Context

	reservations *reserve.Set // read at the first edit check (reservations.go)

	// The context fill of the transcript's last main-thread reply, read
	// once for the event line (NoteContext); haveReply is false when
	// there is none.
	replyTokens int64
	haveReply   bool

	deny func(reason string) []byte // how the client takes a refusal; nil: Claude Code's Deny
}

// denyOut is the call's refusal in its client's form.
func (c *call) denyOut(reason string) []byte {
	if c.deny == nil {
		return Deny(reason)
	}
	return c.deny(reason)
}

// StdinBound bounds the read of a hook's payload; a timeout counts as
// invalid JSON.
const StdinBound = 2 * time.Second

// Serve is `st hook <event>`, the one way every hook runs: resolve (when
// not nil) fills opt from the environment, then Serve reads the payload
// from stdin when the hook takes one, loads config.yaml when the hook
// reads it, runs the hook through Run, prints its output, then runs and
// prints the hook's then part, if any. It returns the exit code.
// Whatever happens, resolving included, it fails open.
//
// The budget (ST_HOOK_TIMEOUT_MS) is a wall-clock limit on all of it
// from opt.Start: reading the payload, parsing config.yaml, every lock
// wait and the event line. When it runs out, Serve prints the hook's
// answer if it has one, else the fail-open output, and returns; the
// caller exits, abandoning whatever still waits. Only the then part runs
// after it, unbudgeted.
func Serve(event string, opt Options, resolve func(*Options), stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = write(Fault(event, opt.JSON), stdout, stderr)
		}
	}()
	if opt.Start.IsZero() {
		opt.Start = time.Now()
	}
	if resolve != nil {
		resolve(&opt)
	}
	h, ok := hookFor(event, opt.Retry)
	opt.deadline = opt.Start.Add(budgetFor(event, opt))
	opt.early = &earlyResult{deadline: opt.deadline}
	done := make(chan served, 1)
	hookOpt := opt // a copy: the hook's settings are its own
	go func() {
		stackstart.GrowDeep()
		defer func() {
			if r := recover(); r != nil {
				close(done)
			}
		}()
		done <- runServed(event, h, ok, &hookOpt, stdin)
	}()
	timer := time.NewTimer(time.Until(opt.deadline))
	defer timer.Stop()
	var out served
	finished := false
	select {
	case out, finished = <-done:
	case <-timer.C:
	}
	if !finished || time.Now().After(opt.deadline) {
		// An answer the hook gave after its deadline does not count
		// (earlyResult.set), even when it reaches us before the timer:
		// which of the two comes first must not decide the output.
		out.res = opt.early.or(Fault(event, opt.JSON))
	}
	code = write(out.res, stdout, stderr)
	if finished && h.then != nil && code == 0 {
		more, _ := budgeted(0, func() Result {
			if opt.TestPanic {
				panic("hooks: test panic")
			}
			return h.then(out.payload, opt)
		})
		code = write(more, stdout, stderr)
	}
	return code
}

// earlyResult is a hook's output as soon as it is known; the first one
// set wins. A hook may name in advance what to answer if it runs out of
// time before it knows (instead of the fail-open output). What is named
// after the deadline is dropped: the hook's output is what it knew by
// then, not what a race with the deadline's timer let through.
type earlyResult struct {
	mu       sync.Mutex
	deadline time.Time // zero: none
	res      *Result
	fallback *Result
}

// late reports whether the deadline has passed; the caller holds mu.
func (e *earlyResult) late() bool {
	return !e.deadline.IsZero() && time.Now().After(e.deadline)
}

// otherwise sets what or gives when no output was set.
func (e *earlyResult) otherwise(r Result) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.late() {
		e.fallback = &r
	}
}

func (e *earlyResult) set(r Result) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.res == nil && !e.late() {
		e.res = &r
	}
}

// or returns the output set, else the hook's own fallback, else
// fallback.
func (e *earlyResult) or(fallback Result) Result {
	if e == nil {
		return fallback
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.res != nil:
		return *e.res
	case e.fallback != nil:
		return *e.fallback
	}
	return fallback
}

func write(res Result, stdout, stderr io.Writer) int {
	_, _ = stdout.Write(res.Stdout) // the hook's answer: nothing is left to tell if it cannot be written
	_, _ = stderr.Write(res.Stderr) // the hook's answer: nothing is left to tell if it cannot be written
	return res.Code
}

// Run runs the hook for event on its payload and returns its output. It
// never panics and never takes much longer than the hook's budget, and
// it appends the event's line to the agent's event log (a hook with a
// then part leaves that to it). An unknown event is a fault like any
// other: exit 0, nothing printed.
func Run(event string, payload []byte, opt Options) Result {
	h, ok := hookFor(event, opt.Retry)
	if !ok {
		return Result{}
	}
	if h.onStore && opt.Agent == "" {
		// No agent: nowhere to record, nothing to say. A user-scope
		// install runs every hook in sessions that are not an agent's, so
		// this path starts no goroutine, decodes nothing and reads no
		// transcript.
		return Result{}
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	budget := budgetFor(event, opt)
	if !opt.deadline.IsZero() {
		budget = max(time.Until(opt.deadline), time.Nanosecond)
	}
	res, done := budgeted(budget, func() Result { return h.start(event, payload, opt) })
	if !done {
		res = opt.early.or(Fault(event, opt.JSON))
	}
	opt.early.set(res)
	if !h.onStore && h.then == nil {
		record(event, payload, opt, res.decided)
		if h.after != nil {
			h.after(&call{opt: opt, payload: payload})
		}
	}
	return res
}

// start runs the hook itself.
func (h hook) start(event string, payload []byte, opt Options) Result {
	if opt.TestPanic {
		panic("hooks: test panic")
	}
	if opt.TestDelay > 0 && event != PreCompact {
		time.Sleep(opt.TestDelay)
	}
	if !h.onStore {
		return h.run(&call{opt: opt, payload: payload})
	}
	c := &call{opt: opt, payload: payload, now: opt.now()}
	c.p, _ = ParsePayload(payload)
	c.line = NewEvent(EventName(event, &c.p), &c.p, c.now)
	c.replyTokens, c.haveReply = NoteContext(c.line, &c.p)
	noteWhere(c.line, &c.p, opt)
	t, err := fsutil.Open(opt.Root)
	if err != nil && h.createsRoot {
		t, err = fsutil.OpenOrCreate(opt.Root)
	}
	if err != nil {
		return Result{}
	}
	defer t.Close()
	ctx, cancel := opt.lockCtx()
	defer cancel()
	c.t, c.ctx = t, ctx
	res := h.run(c)
	opt.early.set(res)
	// The line gets a lock wait of its own: the hook may have spent the
	// first one (a stop judge may take most of the budget).
	lineCtx, lineCancel := opt.lockCtx()
	defer lineCancel()
	Append(lineCtx, t, opt, c.line)
	if h.after != nil {
		h.after(c)
	}
	return res
}

// budgetFor is event's time budget: ST_HOOK_TIMEOUT_MS. Pre-compact has
// its own documented write deadline (ST_PRECOMPACT_TIMEOUT_S, 5 s by
// default, more than the default budget): when ST_HOOK_TIMEOUT_MS is not
// set, its budget stretches to let the write run out and log before the
// hook gives up; when it is set, it bounds pre-compact like every hook.
func budgetFor(event string, opt Options) time.Duration {
	budget := Budget(opt.HookTimeoutMS)
	if event == PreCompact && !budgetSet(opt.HookTimeoutMS) {
		if d := precompactDeadline(opt.PrecompactTimeoutS) + time.Second; d > budget {
			budget = d
		}
	}
	return budget
}

// running counts the hooks budgeted started, including those it left
// running past their budget, so a test can wait for them to end before
// its folders are removed.
var running sync.WaitGroup

// served is the result of the hook Serve runs, and the payload it read.
type served struct {
	res     Result
	payload []byte
}

// runServed is the body of the goroutine Serve runs a hook in: it reads
// the payload and config.yaml the hook takes, then runs it. A function of
// its own, given opt by pointer, so that the goroutine's first frame is
// small: Options as an argument would outgrow the goroutine's 2 KiB
// stack before GrowDeep, a second copy of the stack.
func runServed(event string, h hook, known bool, opt *Options, stdin io.Reader) served {
	var payload []byte
	if known && (event == PreToolUse || event == CodexPreToolUse || event == GeminiBeforeTool) {
		payload, opt.payloadCut = readEditPayload(stdin, opt.deadline.Add(-decideTime(budgetFor(event, *opt))))
	} else if known && h.readsPayload {
		payload = readBounded(stdin, StdinBound)
	} else if known && !h.onStore {
		opt.late = readLate(stdin) // for the event line's session (late_payload.go)
	}
	opt.Config = DefaultConfig()
	if h.readsConfig {
		opt.Config = LoadConfig(opt.ConfigDir)
	}
	if event == UserPromptSubmit {
		opt.Spool.Host, _ = os.Hostname()
	}
	return served{Run(event, payload, *opt), payload}
}

// budgeted runs fn within d (no limit when d is 0); done is false when
// it panicked or ran over.
func budgeted(d time.Duration, fn func() Result) (res Result, done bool) {
	ch := make(chan Result, 1)
	running.Add(1)
	go func() {
		stackstart.GrowDeep() // fn is a hook's body
		defer running.Done()
		defer func() {
			if r := recover(); r != nil {
				close(ch)
			}
		}()
		ch <- fn()
	}()
	var timeout <-chan time.Time
	if d > 0 {
		timer := time.NewTimer(d)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case r, ok := <-ch:
		return r, ok
	case <-timeout:
		return Result{}, false
	}
}

// Fault is the fail-open result of a hook that panicked or ran out of
// time: exit 0 and silence, except that session-start still gives its
// ritual line (exit 2; with --json as hookSpecificOutput, exit 0).
func Fault(event string, asJSON bool) Result {
	if event != SessionStart {
		return Result{}
	}
	return sessionStartResult(RitualLine, asJSON)
}

// DefaultBudget is a hook's time budget when ST_HOOK_TIMEOUT_MS is unset
// or invalid.
const DefaultBudget = 2 * time.Second

// Budget parses ST_HOOK_TIMEOUT_MS: a positive decimal number of
// milliseconds (fraction allowed, surrounding spaces ignored); anything
// else means DefaultBudget.
func Budget(v string) time.Duration {
	if !budgetSet(v) {
		return DefaultBudget
	}
	ms, _ := layout.Decimal(v)
	return time.Duration(ms * float64(time.Millisecond))
}

// decideTime is what an edit hook keeps of its budget to decide once
// its payload is read: a quarter, or up to half to have 500 ms.
func decideTime(budget time.Duration) time.Duration {
	return max(budget/4, min(budget/2, 500*time.Millisecond))
}

// budgetSet reports whether v is a valid ST_HOOK_TIMEOUT_MS, one Budget
// takes rather than falling back to DefaultBudget.
func budgetSet(v string) bool {
	ms, ok := layout.Decimal(v)
	return ok && ms > 0 && ms <= 1e9
}

// readBounded reads r to EOF within d; on timeout or error it returns
// nil, which the hook reads as invalid JSON.
func readBounded(r io.Reader, d time.Duration) []byte {
	done := make(chan []byte, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			data = nil
		}
		done <- data
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case data := <-done:
		return data
	case <-timer.C:
		return nil
	}
}

// LockWait bounds the locks a hook waits for (the event log's append
// lock, the session state): long enough that a burst of parallel hooks
// on a loaded machine all get their turn, inside the 2 s default budget.
const LockWait = 1500 * time.Millisecond

func hookCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), LockWait)
}

// lockCtx bounds a lock wait by LockWait and by the hook's deadline.
func (o *Options) lockCtx() (context.Context, context.CancelFunc) {
	return o.waitCtx(LockWait)
}

// waitCtx ends after d or at the hook's deadline, whichever comes first.
func (o *Options) waitCtx(d time.Duration) (context.Context, context.CancelFunc) {
	end := time.Now().Add(d)
	if !o.deadline.IsZero() && o.deadline.Before(end) {
		end = o.deadline
	}
	return context.WithDeadline(context.Background(), end)
}

// Append stamps the hook's duration on ev and appends it to the agent's
// event log; errors are dropped (the log must never fail a hook). An
// agent with no folder yet gets one, as its first Stop would make it: a
// new agent's first session is then on the board and in its trace from
// its first line.
func Append(ctx context.Context, t *fsutil.Tree, opt Options, ev *events.Event) {
	if !t.IsDir(opt.Agent) {
		if err := ensureAgent(t, opt.Agent); err != nil {
			noteWriteFailure(opt, filepath.Join(opt.Root, opt.Agent), err)
			return
		}
	}
	if !opt.Start.IsZero() {
		ev.HookUS = time.Since(opt.Start).Microseconds()
	}
	if err := events.Append(ctx, t, opt.Agent, ev); err != nil {
		noteWriteFailure(opt, filepath.Join(opt.Root, opt.Agent), err)
	}
}

// ensureAgent creates agent's folder in the store as `st` makes it for a
// new agent: its inbox and archive.
func ensureAgent(t *fsutil.Tree, agent string) error {
	if err := t.MkdirAll(agent + "/inbox"); err != nil {
		return err
	}
	return t.MkdirAll(agent + "/archive")
}

// record appends the plain event line of a hook that is not onStore,
// after it ran; a panic here is dropped like any other log failure.
func record(event string, payload []byte, opt Options, d *decision) {
	defer func() { _ = recover() }()
	if payload == nil {
		payload = opt.logPayload()
	}
	recordDecided(event, payload, opt.Session, opt, d)
}

// Record appends a plain event line for event: payload is its stdin when
// it read one, else nil and the session comes from session
// (CLAUDE_CODE_SESSION_ID). It creates nothing but the agent's events
// folder.
func Record(event string, payload []byte, session string, opt Options) {
	recordDecided(event, payload, session, opt, nil)
}

// recordDecided is Record with what the hook decided (nil: nothing).
func recordDecided(event string, payload []byte, session string, opt Options, d *decision) {
	if opt.Agent == "" {
		return
	}
	p, _ := ParsePayload(payload)
	if p.SessionID == "" {
		p.SessionID = session
	}
	ev := NewEvent(EventName(event, &p), &p, opt.now())
	if d != nil {
		ev.Advice, ev.Judge = d.advice, d.judge
	}
	NoteContext(ev, &p)
	noteWhere(ev, &p, opt)
	t, err := fsutil.Open(opt.Root)
	if err != nil {
		noteWriteFailure(opt, opt.Root, err) // ST_ROOT a file: ENOTDIR
		return
	}
	defer t.Close()
	ctx, cancel := opt.lockCtx()
	defer cancel()
	Append(ctx, t, opt, ev)
	if event == SessionStart && t.IsDir(opt.Agent) {
		// A lock budget of its own: the line above may have used up the
		// first. Both end by the hook's deadline.
		ctx, cancel := opt.lockCtx()
		defer cancel()
		start := opt.Start
		if start.IsZero() {
			start = opt.now()
		}
		StartArrivals(ctx, t, opt.Agent, p.SessionID, start)
	}
}
