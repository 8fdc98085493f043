package hooks

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
)

// Codex validates hook output against closed schemas: SessionStart takes
// context only as hookSpecificOutput.additionalContext, and Stop takes no
// context at all, only decision/reason (a block continues the turn with
// reason as the next prompt). Upstream's top-level {additionalContext,
// continue} is rejected by both, so ours prints the shapes Codex accepts
// (st-compat.md §9 #36 asked to raise it; the text is upstream's).

// runCodexSessionStart serves the clients that take the restart context
// as SessionStart's hookSpecificOutput.additionalContext and announce
// arrivals from a cursor in cl.CursorDir (codex_cursor.go): Codex and
// Gemini CLI.
func runCodexSessionStart(opt Options, cl Client) Result {
	if opt.Agent == "" {
		return Result{} // fail open: no agent, nothing to say
	}
	budget := ContextBudget(cl.Family, opt.ContextBudget, opt.ConfigDir)
	brief := fleetBrief(opt, budget/briefShare) // brief.go
	budget -= len(brief)
	now, fresh := freshNow(opt.Root, opt.Agent, opt.RehydrateStaleS, opt.Now(), budget)
	nowMS := opt.Now().UnixMilli()
	items, err := codexList(opt, -1)
	if err != nil {
		noteWriteFailure(opt, filepath.Join(opt.Root, opt.Agent), err)
		return systemMessage("st message ls --json failed: " + strings.TrimSuffix(errLine(err), "\n"))
	}
	text, shown := "", 0
	if fresh || len(items) > 0 {
		text, shown = codexStartText(opt, now, fresh, items, budget)
	}
	res := Result{}
	if text = withBrief(text, brief); text != "" {
		res = codexJSON(map[string]any{"hookSpecificOutput": orderedHSO{"SessionStart", text}})
	}
	// The session gets its context even when the cursor's lock is held
	// past the deadline (its first Stop may then repeat an arrival).
	opt.early.set(res)
	// What SessionStart names is announced: move the agent's cursor past
	// it, so the first Stop does not repeat it, but not past
	// the older messages the budget left out.
	if t, err := fsutil.OpenOrCreate(filepath.Join(opt.StateDir, cl.CursorDir)); err == nil {
		c := openCursor(t, opt)
		c.save(items, items[len(items)-shown:], nowMS)
		c.close()
		t.Close()
	}
	return res
}

// codexStartText is now.md's block (when fresh), then a blank line, then
// the inbox list (when not empty), in at most budget bytes
// (context_budget.go); shown is how many of the newest items the list
// names.
func codexStartText(opt Options, now nowMD, fresh bool, items []item, budget int) (text string, shown int) {
	data := now.data
	header := fmt.Sprintf("## st inbox (%d unread)", len(items))
	join := func(data []byte, list string) string {
		var parts []string
		if fresh {
			parts = append(parts, contextBlock(opt.Agent, data, ""))
		}
		if list != "" {
			parts = append(parts, list)
		}
		return strings.Join(parts, "\n\n")
	}
	list := ""
	if len(items) > 0 {
		list, shown = codexListText(header, items, math.MaxInt)
	}
	text = join(data, list)
	if len(text) <= budget {
		return text, shown
	}
	avail := budget
	if fresh && list != "" {
		avail -= len("\n\n")
	}
	block := ""
	if fresh {
		block = contextBlock(opt.Agent, data, "")
	}
	if list != "" {
		_, inboxMax := splitBudget(avail, len(block), len(list))
		list, shown = codexListText(header, items, inboxMax)
	}
	if fresh {
		frame := len(contextBlock(opt.Agent, nil, "")) + 1 // +1: the newline added after a cut file
		data = cutMiddleOf(data, now.size, avail-len(list)-frame, nowMDPath(opt.Root, opt.Agent))
	}
	return join(data, list), shown
}

// runCodexStop continues the turn with the inbox news since the last
// check, at most once per stop chain: when the Stop follows a
// continuation (stop_hook_active), it lets the turn end and leaves the
// rest for the next turn's Stop. The one continuation already said how
// many older messages it left out and how to list them, and each further
// one would resend the whole context (1,000 unread messages made one turn
// take seven model requests). Gemini CLI's AfterAgent takes the same
// {"decision":"block","reason":…} as a retry turn with reason as its
// prompt, and says stop_hook_active the same way.
func runCodexStop(opt Options, cl Client) Result {
	if opt.Agent == "" {
		return Result{} // fail open: no agent, nothing to say
	}
	// The payload, read for the event line, is waited for as long.
	if p, _ := ParsePayload(opt.logPayload()); p.StopHookActive {
		return codexJudge(opt) // ends the stop judge's chain, judging nothing
	}
	dir := filepath.Join(opt.StateDir, cl.CursorDir)
	t, err := fsutil.OpenOrCreate(dir)
	if err != nil {
		noteWriteFailure(opt, dir, err)
		return systemMessage("could not create state dir: " + dir)
	}
	defer t.Close()
	if err := layout.EnsureAgent(opt.Root, opt.Agent); err != nil {
		noteWriteFailure(opt, filepath.Join(opt.Root, opt.Agent), err)
		return systemMessage("st message ls --json failed: " + strings.TrimSuffix(errLine(err), "\n"))
	}
	c := openCursor(t, opt)
	defer c.close()
	nowMS := opt.Now().UnixMilli()
	listed, err := codexList(opt, c.since())
	if err != nil {
		return systemMessage("st message ls --json failed: " + strings.TrimSuffix(errLine(err), "\n"))
	}
	items := c.unseen(listed)
	if len(items) == 0 {
		c.save(listed, nil, nowMS)
		return codexJudge(opt) // stop_judge.go
	}
	budget := ContextBudget(cl.Family, opt.ContextBudget, opt.ConfigDir)
	text, shown := codexListText(fmt.Sprintf("## st inbox (%d new since last check)", len(items)), items, budget)
	// Only what the text names is announced: the older ones it left out
	// stay news for the next Stop.
	c.save(listed, items[len(items)-shown:], nowMS)
	if text == "" {
		return Result{}
	}
	return codexJSON(orderedStop{"block", text})
}

// codexList is `st message ls --json [--since S]` through the env path:
// the agent's folders are created first.
func codexList(opt Options, since float64) ([]item, error) {
	if err := layout.EnsureAgent(opt.Root, opt.Agent); err != nil {
		return nil, err
	}
	return listInbox(opt.Root, opt.Agent, since)
}

type orderedHSO struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

type orderedStop struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// systemMessage is upstream's failure report, valid for both events.
func systemMessage(text string) Result {
	return codexJSON(struct {
		SystemMessage string `json:"systemMessage"`
		Continue      bool   `json:"continue"`
	}{"st hook failed: " + text, true})
}

// codexJSON prints v as jq does: 2-space indent and a final newline.
func codexJSON(v any) Result {
	out, err := jsstr.MarshalIndent(v)
	if err != nil {
		return Result{}
	}
	return Result{Stdout: append(bytes.TrimSpace(out), '\n')}
}
