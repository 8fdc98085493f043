package hooks

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/reserve"
)

// GitPreCommit is the git pre-commit guard: it refuses a commit that
// stages a path under another agent's exclusive reservation.
const GitPreCommit = "git-pre-commit"

// GitEvents lists the git hooks st runs.
var GitEvents = []string{GitPreCommit}

// gitPreCommit lists the staged paths (added, changed, deleted, both
// sides of a rename) of the repository in the working folder, which is
// where git runs its hooks, and refuses the commit, exit 1, naming the
// holder of every reserved one. Without an agent every agent's exclusive
// reservation counts. Anything it cannot find out lets the commit pass.
func gitPreCommit(c *call) Result {
	cwd, err := os.Getwd()
	if err != nil {
		return Result{}
	}
	top, ok := reserve.FindRepo(cwd)
	if !ok {
		return Result{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), Budget(c.opt.HookTimeoutMS))
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "diff", "--cached", "--name-only", "--no-renames", "-z")
	cmd.Dir = top
	out, err := cmd.Output()
	if err != nil {
		return Result{}
	}
	t, err := fsutil.Open(c.opt.Root)
	if err != nil {
		return Result{}
	}
	defer t.Close()
	now := c.opt.now()
	set := reserve.Scan(t, now)
	repo := reserve.Identify(top, reserve.HookWait)
	var b strings.Builder
	var holders []string
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p == "" {
			continue
		}
		h, ok := set.Holder(c.opt.Agent, repo, p)
		if !ok {
			continue
		}
		fmt.Fprintf(&b, "  %s: %s\n", termsafe.Line(p), reserve.Describe(h, now))
		if !strings.Contains(strings.Join(holders, " "), h.Agent) {
			holders = append(holders, h.Agent)
		}
	}
	if b.Len() == 0 {
		return Result{}
	}
	msg := "st: commit refused: it touches paths another agent reserved exclusively (st reservations):\n" + b.String() +
		fmt.Sprintf("Ask them to release them (st message send %s), or unstage those paths; git commit --no-verify skips this check.\n", holders[0])
	return Result{Stderr: []byte(msg), Code: 1}
}
