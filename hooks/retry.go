package hooks

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
)

// Retry limits.
const (
	AlertAttempt = 5  // the operator hears of the streak at this attempt
	MaxAttempts  = 10 // retries stop after this many
)

// Transient reports whether a StopFailure type is worth retrying.
func Transient(failType string) bool {
	switch failType {
	case "overloaded", "server_error", "rate_limit":
		return true
	}
	return false
}

// Backoff is the wait before retry attempt n (1-based): base doubling
// each attempt up to max, scaled by a jitter factor between 0.8 and 1.2
// (j in [0,1)), and never over max.
func Backoff(n int, base, max time.Duration, j float64) time.Duration {
	if n < 1 {
		n = 1
	}
	d := float64(base) * math.Pow(2, float64(min(n-1, 40)))
	d = math.Min(d, float64(max))
	d *= 0.8 + 0.4*j
	return time.Duration(math.Min(d, float64(max)))
}

// Plan is what a stop-failure does for a given attempt.
type Plan int

const (
	PlanRetry         Plan = iota // wait, then ask the model to retry
	PlanRetryAndAlert             // the same, and tell the operator
	PlanGiveUp                    // no retry; tell the operator it gave up
	PlanNone                      // no retry, nothing to say (already gave up)
)

// PlanFor returns the plan for attempt n of a streak.
func PlanFor(n int) Plan {
	switch {
	case n == AlertAttempt:
		return PlanRetryAndAlert
	case n <= MaxAttempts:
		return PlanRetry
	case n == MaxAttempts+1:
		return PlanGiveUp
	}
	return PlanNone
}

// Streak is the retry state of one session: a dot-file next to its log
// (events.StatePath kind "retry"). Each failure writes a fresh Token; a
// sleeping retry whose token is no longer there has been superseded by
// a prompt, a stop or a newer failure.
type Streak struct {
	Token   string `json:"token"`
	Type    string `json:"type"`
	Attempt int    `json:"attempt"`
	AtMS    int64  `json:"at_ms"`
}

// NewToken returns a fresh random token. math/rand/v2's generator is
// ChaCha8 seeded by the runtime from the kernel, unpredictable enough
// here, and unlike crypto/rand it links no crypto into st.
func NewToken() string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], rand.Uint64())
	return hex.EncodeToString(b[:])
}

func retryPath(agent, session string) string { return events.StatePath(agent, session, "retry") }

// ReadStreak returns a session's streak; ok is false when there is none.
func ReadStreak(t *fsutil.Tree, agent, session string) (s Streak, ok bool) {
	data, err := readSmall(t, retryPath(agent, session))
	if err != nil || json.Unmarshal(data, &s) != nil || s.Token == "" {
		return Streak{}, false
	}
	return s, true
}

// BeginRetry records a transient failure: the attempt after the
// session's current streak (1 with none), under a fresh token.
func BeginRetry(ctx context.Context, t *fsutil.Tree, agent, session, failType string, now time.Time) (Streak, error) {
	unlock, err := t.Lock(ctx, "retry-"+lockName(agent, session))
	if err != nil {
		return Streak{}, err
	}
	defer unlock()
	prev, _ := ReadStreak(t, agent, session)
	s := Streak{Token: NewToken(), Type: failType, Attempt: prev.Attempt + 1, AtMS: now.UnixMilli()}
	data, _ := json.Marshal(&s)
	return s, writeState(t, agent, retryPath(agent, session), data, t.WriteAtomic)
}

// ClearRetry ends a session's streak, superseding any sleeping retry. It
// costs one Lstat when there is no streak.
func ClearRetry(ctx context.Context, t *fsutil.Tree, agent, session string) error {
	rel := retryPath(agent, session)
	if _, err := t.Lstat(rel); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := t.Lock(ctx, "retry-"+lockName(agent, session))
	if err != nil {
		return err
	}
	defer unlock()
	if err := t.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Superseded reports whether token is no longer the session's current
// streak token.
func Superseded(t *fsutil.Tree, agent, session, token string) bool {
	s, ok := ReadStreak(t, agent, session)
	return !ok || s.Token != token
}

// Wait sleeps for d, checking superseded every poll; it returns true as
// soon as superseded does (or ctx ends), false when d passed and the
// retry still stands.
func Wait(ctx context.Context, d, poll time.Duration, superseded func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return superseded()
		}
		timer := time.NewTimer(min(left, poll))
		select {
		case <-ctx.Done():
			timer.Stop()
			return true
		case <-timer.C:
		}
		if superseded() {
			return true
		}
	}
}

// RetryLine is the one stderr line that wakes the model (asyncRewake,
// exit 2) to retry the failed turn.
func RetryLine(failType string, attempt int) string {
	return fmt.Sprintf("The previous turn ended on a transient API error (%s). Retry the failed turn now (automatic retry %d of %d).\n",
		failType, attempt, MaxAttempts)
}

// AlertNote is the operator message at the alert attempt.
func AlertNote(agent, failType string, attempt int) (subject, body string) {
	return fmt.Sprintf("agent %s: %s, retry %d of %d", agent, failType, attempt, MaxAttempts),
		fmt.Sprintf("Agent %s has failed %d turns in a row on %s. st keeps retrying with backoff (up to %d attempts); worth a look if the provider is down.\n",
			agent, attempt, failType, MaxAttempts)
}

// GiveUpNote is the operator message when the retries run out.
func GiveUpNote(agent, failType string) (subject, body string) {
	return fmt.Sprintf("agent %s: gave up retrying %s", agent, failType),
		fmt.Sprintf("Agent %s failed %d retries in a row on %s. st stopped retrying; the agent waits for a prompt.\n",
			agent, MaxAttempts, failType)
}

// RetryPoll is how often a sleeping retry checks whether it was
// superseded.
const RetryPoll = time.Second

// StopFailureRetry is `st hook stop-failure --retry`, run after the
// normal stop-failure policy: for a transient failure it records the
// attempt, tells the operator at the alert attempt or when giving up,
// waits the backoff and asks the model to retry (exit 2 and one stderr
// line, for asyncRewake); a retry superseded while it waits exits 0
// silently, and a session that cannot be woken (a one-shot claude -p,
// headless.go) is not kept waiting. Any other failure ends the session's
// streak. It also appends the StopFailure event line.
func StopFailureRetry(stdin []byte, opt Options) Result {
	if opt.Agent == "" {
		return Result{}
	}
	p, _ := ParsePayload(stdin)
	failType := p.FailureType()
	ev := NewEvent("StopFailure", &p, opt.now())
	noteWhere(ev, &p, opt)
	t, err := fsutil.OpenOrCreate(opt.Root)
	if err != nil {
		return Result{}
	}
	defer t.Close()
	ctx, cancel := hookCtx()
	defer cancel()
	if !Transient(failType) {
		_ = ClearRetry(ctx, t, opt.Agent, p.SessionID) // best effort: a stale retry record only delays the next one
		Append(ctx, t, opt, ev)
		return Result{}
	}
	if opt.Knobs.Unattended && !CanRewake(opt.Knobs, ClientCommandLine(opt.Knobs.ClientPID)) {
		// A one-shot claude -p: no turn can follow, so no wait (headless.go).
		ev.Advice = "no-retry-headless"
		Append(ctx, t, opt, ev)
		return Result{}
	}
	streak, err := BeginRetry(ctx, t, opt.Agent, p.SessionID, failType, opt.now())
	if err != nil {
		Append(ctx, t, opt, ev)
		return Result{}
	}
	ev.Attempt = streak.Attempt
	plan := PlanFor(streak.Attempt)
	to := opt.Config.Recipient(opt.Operator)
	switch plan {
	case PlanRetryAndAlert:
		subject, body := AlertNote(opt.Agent, failType, streak.Attempt)
		if to != opt.Agent && layout.ValidAgent(to) {
			_, _ = sendNote(t, opt, to, message.Message{From: opt.Agent, Subject: subject, Body: []byte(body)}) // best effort: the status already tells the board
		}
		ev.Advice = "retry-alert"
	case PlanGiveUp:
		subject, body := GiveUpNote(opt.Agent, failType)
		if to != opt.Agent && layout.ValidAgent(to) {
			_, _ = sendNote(t, opt, to, message.Message{From: opt.Agent, Subject: subject, Priority: "high", Body: []byte(body)}) // best effort: the status already tells the board
		}
		ev.Advice = "retry-give-up"
	case PlanRetry:
		ev.Advice = "retry"
	}
	retrying := plan == PlanRetry || plan == PlanRetryAndAlert
	delay := Backoff(streak.Attempt, opt.Knobs.RetryBase, opt.Knobs.RetryMax, rand.Float64())
	if retrying {
		ev.RetryAt = events.Stamp(opt.now().Add(delay))
	}
	Append(ctx, t, opt, ev)
	if !retrying {
		return Result{}
	}
	poll := min(RetryPoll, max(delay/10, 10*time.Millisecond))
	if Wait(context.Background(), delay, poll, func() bool {
		return Superseded(t, opt.Agent, p.SessionID, streak.Token)
	}) {
		return Result{}
	}
	return Result{Stderr: []byte(RetryLine(failType, streak.Attempt)), Code: 2}
}
