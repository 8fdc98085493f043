package hooks

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/reserve"
	"github.com/smalltalk-go/st/toolcall"
)

// Every client's pre-tool hook decides a call the same way: toolcall
// says what it writes, and the reservations decide. A decided write of a
// file another agent holds is refused with ReservedReason, the text an
// Edit gets; a path the call names without st knowing what it does to
// it, or a call whose files st cannot see at all, is refused while
// another agent holds a reservation, unless config.yaml says
// shell_undecided: allow. A call naming no reserved path passes.

// shellRetryAny tells the model how to run a shell write st can check.
const shellRetryAny = "Retry with each file the command changes named plainly in it (no variables, command substitutions, " +
	"eval or scripts in its path, and a plain `cd DIR &&` before it), or change the file with the edit tool."

// budgetRefusal is why a call st could not finish checking in time is
// refused while other agents hold reservations.
const budgetRefusal = "st could not check every file this call writes against the reservations within the hook's time budget, " +
	"and other agents hold reservations (see them with: st reservations), so st refuses it rather than let it through unchecked. " +
	"Change fewer files per call and retry."

// bigInput is the size of a command or patch past which the
// reservations are read before it.
const bigInput = 64 << 10

// slowCheck, when set, runs before each path is checked (a test slows
// the check past the budget with it). Atomic: the hook it slows is left
// running when the test ends and resets it.
var slowCheck atomic.Pointer[func()]

// toolCallOf is the call as toolcall reads it: ok is false for a tool
// that writes no file.
func toolCallOf(c *call, cl Client) (tc toolcall.Call, ok bool) {
	kind := cl.KindOf(c.p.ToolName)
	if kind == toolcall.Other {
		return toolcall.Call{}, false
	}
	tc = toolcall.Call{Kind: kind, Cwd: c.p.Cwd}
	switch kind {
	case toolcall.Edit:
		tc.Path = cl.EditPath(c.p.ToolInput)
	default:
		var loose map[string]any
		_ = json.Unmarshal(c.p.ToolInput, &loose) // not an object: none of its members
		tc.Input = c.p.Input().Command
		tc.Thinned = loose[ThinnedMember] == true
		if kind == toolcall.Shell && cl.ShellDirKey != "" {
			tc.Cwd = shellDir(loose, cl.ShellDirKey, c.p.Cwd)
		}
	}
	return tc, true
}

// shellDir is the folder a shell tool runs in when its input names one
// at key (relative to cwd), else cwd.
func shellDir(loose map[string]any, key, cwd string) string {
	d, _ := loose[key].(string)
	switch {
	case d == "":
		return cwd
	case filepath.IsAbs(d):
		return filepath.Clean(d)
	case cwd == "":
		return ""
	}
	return filepath.Join(cwd, d)
}

// writesDeny returns the reason to refuse the call and the event line's
// advice ("reserved", "undecided"), or denied false.
func writesDeny(c *call, cl Client) (reason, advice string, denied bool) {
	tc, ok := toolCallOf(c, cl)
	cut := c.opt.payloadCut
	if !ok && (cut == "" || c.p.ToolName != "") {
		return "", "", false
	}
	if cut != "" && (tc.Kind != toolcall.Edit || tc.Path == "") {
		// An input read thinned still names an editor's path (the
		// content is what it drops); without one, or for a command st
		// could not read whole, the call cannot be checked.
		if reason, denied := undecidedDeny(c, unreadEdit(c.p.ToolName, cut), bigRetry); denied {
			return reason, "undecided", true
		}
		return "", "", false
	}
	// A small call is read first: most write nothing, and the
	// reservations are then never read. A big one (a patch of thousands
	// of files) may take long to read: the reservations come first, so
	// that, should the check run out of time while one is held, the call
	// is refused rather than let through.
	var set *reserve.Set
	held := func() bool {
		set = reservations(c)
		if !set.HeldByOthers(c.opt.Agent) {
			return false
		}
		c.opt.early.otherwise(Result{Stdout: c.denyOut(budgetRefusal)})
		return true
	}
	big := len(tc.Input) > bigInput
	if big && !held() {
		return "", "", false
	}
	eff := toolcall.Of(tc)
	if eff.None() || !big && !held() {
		return "", "", false
	}
	loc := reserve.NewLocator(reserve.HookWait)
	for _, n := range eff.Writes {
		if slow := slowCheck.Load(); slow != nil {
			(*slow)()
		}
		if h, rel, ok := holderOf(loc, set, c.opt.Agent, n); ok {
			return ReservedReason(rel, h, c.now), "reserved", true
		}
	}
	if c.opt.Config.ShellUndecided == ShellUndecidedAllow {
		return "", "", false
	}
	for _, n := range eff.Undecided {
		if h, rel, ok := holderOf(loc, set, c.opt.Agent, n); ok {
			return UndecidedReason(rel, n.Why, h, c.now), "undecided", true
		}
	}
	if eff.Blind != "" {
		retry := shellRetryAny
		if tc.Kind == toolcall.Patch || isPatchWhy(eff.Blind) {
			retry = shellRetry
		}
		return eff.Blind + ". Other agents hold reservations (see them with: st reservations), " +
			"so st refuses this call rather than let it through unchecked. " + retry, "undecided", true
	}
	return "", "", false
}

// isPatchWhy reports whether why is about an apply_patch.
func isPatchWhy(why string) bool { return strings.Contains(why, "apply_patch") }

// holderOf returns the reservation of another agent covering the path or
// pattern n, and n relative to its repository.
func holderOf(loc *reserve.Locator, set *reserve.Set, agent string, n toolcall.Named) (reserve.Reservation, string, bool) {
	p := n.Path
	if n.Glob {
		p = literalHead(n.Path)
	}
	repo, rel, ok := loc.Locate(p)
	if !ok {
		return reserve.Reservation{}, "", false
	}
	if !n.Glob {
		h, ok := set.Holder(agent, repo, rel)
		return h, rel, ok
	}
	pattern := filepath.ToSlash(n.Path[len(p):])
	if rel != "." {
		pattern = rel + pattern
	} else {
		pattern = pattern[min(1, len(pattern)):]
	}
	g, err := reserve.Parse(pattern)
	if err != nil {
		h, ok := set.Holder(agent, repo, rel) // the folder it starts in, at least
		return h, rel, ok
	}
	h, ok := set.HolderOf(agent, repo, g)
	return h, g.String(), ok
}

// literalHead is the folder of pattern p before its first wildcard.
func literalHead(p string) string {
	for i := 0; i < len(p); i++ {
		if p[i] == '*' || p[i] == '?' {
			return filepath.Dir(p[:i+1])
		}
	}
	return p
}

// UndecidedReason tells the model that its call names rel, which h
// holds, without st knowing whether the call changes it (why), and what
// to do.
func UndecidedReason(rel, why string, h reserve.Reservation, now time.Time) string {
	return fmt.Sprintf("This command names %s, which agent %s holds exclusively as %s until %s (%s left), "+
		"but %s, so st cannot tell whether it changes the file. "+
		"If it only reads it, run the read in a form st knows (cat, grep, head, sed -n, git diff …); "+
		"if it changes it, wait for the reservation to end or ask %s: st message send %s \"may I edit %s?\". "+
		"See who holds what with: st reservations.",
		termsafe.Line(rel), h.Agent, termsafe.Line(h.Pattern), h.Expires.UTC().Format(time.RFC3339), h.Expires.Sub(now).Round(time.Second),
		termsafe.Line(why), h.Agent, h.Agent, termsafe.Line(rel))
}
