// Package hooks runs st's agent-integration hooks in process: the Claude
// Code events session-start, pre-compact and stop-failure, and the Codex
// events codex-session-start and codex-stop (st-compat.md §7).
//
// A hook is a plain function of its input (the event's stdin bytes, the
// resolved root and agent, settings taken from the environment by the
// caller, a clock) to its output (stdout bytes, stderr bytes, exit code).
// It never reads the environment, never exits and never prints itself, so
// cmd/st only wires it.
//
// Hooks fail open. Claude Code reads exit 2 as "block" on most events and
// Go's runtime exits 2 on an unrecovered panic, so Run recovers panics,
// bounds every hook with a time budget, and turns any internal fault into
// exit 0 with nothing on stdout. The one deliberate exit 2 is
// session-start's wake-up; on a fault session-start still prints its
// ritual line and exits 2, which never blocks on SessionStart.
//
// The package also knows how the hooks are wired: the entries `st hooks
// install` merges into a settings file (entries.go, settings.go), the
// `st hooks path` description (path.go) and the doctor (doctor.go).
package hooks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/hookkit"
	"github.com/smalltalk-go/st/internal/jsstr"
)

// Event names accepted by `st hook <event>`, in usage order.
const (
	SessionStart      = "session-start"
	PreCompact        = "pre-compact"
	StopFailure       = "stop-failure"
	CodexSessionStart = "codex-session-start"
	CodexStop         = "codex-stop"
)

// Events lists every hook event in usage order.
var Events = []string{SessionStart, PreCompact, StopFailure, CodexSessionStart, CodexStop}

// IsEvent reports whether name is one of Events (or ExtraEvents).
func IsEvent(name string) bool {
	for _, e := range Events {
		if e == name {
			return true
		}
	}
	return slices.Contains(ExtraEvents, name)
}

// ReadsStdin reports whether the hook for event reads its stdin payload;
// the others ignore it, so the caller need not wait for it.
func ReadsStdin(event string) bool { return event == StopFailure }

// DefaultBudget is a hook's time budget when ST_HOOK_TIMEOUT_MS is unset
// or invalid.
const DefaultBudget = 2 * time.Second

// Options is everything a hook takes besides its stdin: the resolved
// store, the clock, and the settings the caller read from the
// environment, raw (each hook applies its own parse rules).
type Options struct {
	Root  string // the store root, verbatim
	Agent string // the acting agent; "" when none is set or the name is invalid

	Now func() time.Time

	JSON  bool // session-start --json: hookSpecificOutput on stdout, exit 0
	Inbox bool // session-start --inbox: add an unread-inbox summary

	HookTimeoutMS      string // ST_HOOK_TIMEOUT_MS
	RehydrateStaleS    string // ST_REHYDRATE_STALE_S
	PrecompactTimeoutS string // ST_PRECOMPACT_TIMEOUT_S
	PrecompactFreshS   string // ST_PRECOMPACT_FRESH_S
	Operator           string // ST_OPERATOR
	ConfigDir          string // $ST_CONFIG, else $HOME/.config/smalltalk
	StopFailureWindowS string // ST_STOPFAILURE_WINDOW_S
	StateDir           string // $XDG_STATE_HOME, else $HOME/.local/state
	ContextBudget      string // ST_HOOK_CONTEXT_BUDGET (context_budget.go)

	// Notices are the legacy-variable notices resolving root and agent
	// produced. They never reach a hook's stderr; pre-compact appends
	// them to its log.
	Notices []byte

	// TestPanic makes the hook panic at its start and TestDelay makes it
	// sleep first (pre-compact: inside its write), so tests can exercise
	// the recovery and the time budgets. Both are off in normal use.
	TestPanic bool
	TestDelay time.Duration
}

// Result is what a hook prints and how it exits; the same type as the
// event hooks' (hookkit.Result).
type Result = hookkit.Result

// Run runs the hook for event and returns its output. It never panics and
// never takes much longer than the hook's budget. An unknown event is a
// fault like any other: exit 0, nothing printed.
func Run(event string, stdin []byte, opt Options) Result {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	budget := Budget(opt.HookTimeoutMS)
	if event == PreCompact {
		// pre-compact has its own documented write deadline; let it run
		// out and log before the overall budget gives up.
		if d := precompactDeadline(opt.PrecompactTimeoutS) + time.Second; d > budget {
			budget = d
		}
	}
	done := make(chan Result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- Fault(event, opt.JSON)
			}
		}()
		done <- dispatch(event, stdin, opt)
	}()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case r := <-done:
		return r
	case <-timer.C:
		return Fault(event, opt.JSON)
	}
}

func dispatch(event string, stdin []byte, opt Options) Result {
	if opt.TestPanic {
		panic("hooks: test panic")
	}
	if opt.TestDelay > 0 && event != PreCompact {
		time.Sleep(opt.TestDelay)
	}
	switch event {
	case SessionStart:
		return runSessionStart(opt)
	case PreCompact:
		return runPreCompact(opt)
	case StopFailure:
		return runStopFailure(stdin, opt)
	case CodexSessionStart:
		return runCodexSessionStart(opt)
	case CodexStop:
		return runCodexStop(opt)
	}
	return Result{}
}

// Fault is the fail-open result of a hook that panicked or ran out of
// time: exit 0 and silence, except that session-start still gives its
// ritual line (exit 2; with --json as hookSpecificOutput, exit 0).
func Fault(event string, asJSON bool) Result {
	if event != SessionStart {
		return Result{}
	}
	if asJSON {
		out, err := jsstr.Marshal(claudeContext("SessionStart", RitualLine))
		if err != nil {
			return Result{}
		}
		return Result{Stdout: append(out, '\n')}
	}
	return Result{Stderr: []byte(RitualLine), Code: 2}
}

// Budget parses ST_HOOK_TIMEOUT_MS: a positive decimal number of
// milliseconds (fraction allowed, surrounding spaces ignored); anything
// else means DefaultBudget.
func Budget(v string) time.Duration {
	ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(ms > 0) || ms > 1e9 {
		return DefaultBudget
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// isoSecond formats t as date -u +%Y-%m-%dT%H:%M:%SZ does.
func isoSecond(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// errLine is how an upstream child `st` reported an error on stderr.
func errLine(err error) string { return fmt.Sprintf("st: %s\n", err.Error()) }
