package hooks

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/smalltalk-go/st/internal/jsstr"
)

// A retry wakes the session with asyncRewake, which needs a session that
// goes on after the failed turn. Claude Code 2.1.328 (e2e/claudecode)
// marks -p and SDK sessions with CLAUDE_CODE_SESSION_ATTENDED=0 and
// interactive ones with 1. Of the unattended, those reading turns as
// stream-json on stdin (the SDK, `claude -p --input-format stream-json`)
// live on and can be woken; a one-shot `claude -p "prompt"` ends with
// the failed turn, yet waits for async hooks before it exits, so a retry
// that sleeps through its backoff only holds the run and is dropped.

// CanRewake reports whether a woken turn can follow the failed one:
// anything but an unattended session whose client command line (args;
// "" when unknown) shows no stream-json input. Unknown means yes, as
// before st could tell.
func CanRewake(k Knobs, args string) bool {
	if !k.Unattended || args == "" {
		return true
	}
	return strings.Contains(args, "--input-format stream-json") || strings.Contains(args, "--input-format=stream-json")
}

// ClientCommandLine returns the command line of process pid, its
// arguments joined by spaces: from /proc where there is one, else from
// ps; "" when pid is not a number or neither answers.
func ClientCommandLine(pid string) string {
	if pid == "" || !jsstr.IsDigits(pid) {
		return ""
	}
	if data, err := os.ReadFile("/proc/" + pid + "/cmdline"); err == nil {
		return string(bytes.TrimRight(bytes.ReplaceAll(data, []byte{0}, []byte{' '}), " "))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ps", "-o", "args=", "-p", pid).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
