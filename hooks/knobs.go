package hooks

import (
	"strconv"
	"strings"
	"time"
)

// Knobs are the environment settings of the hooks, already read.
type Knobs struct {
	FlushRemind    time.Duration // ST_FLUSH_REMIND_S, default 1800 s
	LargeRead      int64         // ST_LARGE_READ_BYTES, default 16384
	RetryBase      time.Duration // ST_RETRY_BASE_S, default 15 s
	RetryMax       time.Duration // ST_RETRY_MAX_S, default 600 s
	CapturePrompts bool          // ST_CAPTURE_PROMPTS=1
	HookChild      bool          // ST_HOOK_CHILD=1

	// What Claude Code says about the session (headless.go).
	Unattended bool   // CLAUDE_CODE_SESSION_ATTENDED=0: -p or the SDK, no person at a terminal
	ClientPID  string // CLAUDE_PID: the Claude Code process
}

// Knob defaults.
const (
	DefaultFlushRemind = 1800 * time.Second
	DefaultLargeRead   = 16384
	DefaultRetryBase   = 15 * time.Second
	DefaultRetryMax    = 600 * time.Second
)

// KnobsFrom reads the knobs through get (an environment lookup). Empty,
// malformed or negative values mean the default.
func KnobsFrom(get func(string) string) Knobs {
	return Knobs{
		FlushRemind:    seconds(get("ST_FLUSH_REMIND_S"), DefaultFlushRemind),
		LargeRead:      bytesKnob(get("ST_LARGE_READ_BYTES"), DefaultLargeRead),
		RetryBase:      seconds(get("ST_RETRY_BASE_S"), DefaultRetryBase),
		RetryMax:       seconds(get("ST_RETRY_MAX_S"), DefaultRetryMax),
		CapturePrompts: get("ST_CAPTURE_PROMPTS") == "1",
		HookChild:      get("ST_HOOK_CHILD") == "1",
		Unattended:     get("CLAUDE_CODE_SESSION_ATTENDED") == "0",
		ClientPID:      get("CLAUDE_PID"),
	}
}

// seconds parses a count of seconds, fractions allowed.
func seconds(s string, def time.Duration) time.Duration {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || f < 0 || f > 1e7 || f != f {
		return def
	}
	return time.Duration(f * float64(time.Second))
}

func bytesKnob(s string, def int64) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 {
		return def
	}
	return n
}
