package hooks

import (
	"bytes"
	"fmt"
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

// cursorDir is the Codex cursors' folder under the state dir
// (codex_cursor.go).
const cursorDir = "st-codex-hooks"

func runCodexSessionStart(opt Options) Result {
	if opt.Agent == "" {
		return Result{} // fail open: no agent, nothing to say (issue 11)
	}
	var parts []string
	if data, ok := freshNow(opt.Root, opt.Agent, opt.RehydrateStaleS, opt.Now()); ok {
		parts = append(parts, contextBlock(opt.Agent, data, ""))
	}
	nowMS := opt.Now().UnixMilli()
	items, err := codexList(opt, -1)
	if err != nil {
		return systemMessage("st message ls --json failed: " + strings.TrimSuffix(errLine(err), "\n"))
	}
	// What SessionStart lists is announced: move the agent's cursor past
	// it, so the first Stop does not repeat it (issue 11).
	if t, err := fsutil.OpenOrCreate(filepath.Join(opt.StateDir, cursorDir)); err == nil {
		c := openCursor(t, opt.Root, opt.Agent)
		c.save(items, nowMS)
		c.close()
		t.Close()
	}
	if len(items) > 0 {
		parts = append(parts, inboxText(fmt.Sprintf("## st inbox (%d unread)", len(items)), items))
	}
	if len(parts) == 0 {
		return Result{}
	}
	return codexJSON(map[string]any{"hookSpecificOutput": orderedHSO{"SessionStart", strings.Join(parts, "\n\n")}})
}

func runCodexStop(opt Options) Result {
	if opt.Agent == "" {
		return Result{} // fail open: no agent, nothing to say (issue 11)
	}
	dir := filepath.Join(opt.StateDir, cursorDir)
	t, err := fsutil.OpenOrCreate(dir)
	if err != nil {
		return systemMessage("could not create state dir: " + dir)
	}
	defer t.Close()
	if err := layout.EnsureAgent(opt.Root, opt.Agent); err != nil {
		return systemMessage("st message ls --json failed: " + strings.TrimSuffix(errLine(err), "\n"))
	}
	c := openCursor(t, opt.Root, opt.Agent)
	defer c.close()
	nowMS := opt.Now().UnixMilli()
	listed, err := codexList(opt, c.since())
	if err != nil {
		return systemMessage("st message ls --json failed: " + strings.TrimSuffix(errLine(err), "\n"))
	}
	items := c.unseen(listed)
	c.save(listed, nowMS)
	if len(items) == 0 {
		return Result{}
	}
	text := inboxText(fmt.Sprintf("## st inbox (%d new since last check)", len(items)), items)
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

func inboxText(header string, items []item) string {
	lines := []string{header}
	for _, it := range items {
		lines = append(lines, itemLine(it, 0))
	}
	return strings.Join(lines, "\n")
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
