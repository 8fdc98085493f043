package hooks

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The text a hook injects (now.md, the inbox list) has a budget (issue
// 11): Claude Code moves any output string of 10,000 characters or more
// to a file and shows a preview; Codex truncates additionalContext past
// about 2,500 tokens and copies the whole text into a world-readable temp
// folder. Budgets count bytes of UTF-8, never fewer than characters (or
// JavaScript's UTF-16 units), and about four per token. Over budget,
// now.md loses its middle and the inbox list its tail, each with a marker
// saying what was cut and where to read it all; under budget the text is
// exactly what it was without one.
//
// The budget is, first that applies:
//
//	ST_HOOK_CONTEXT_BUDGET=6000        every client
//	hook_context_budget: 6000          in $ST_CONFIG/config.yaml, every client
//	hook_context_budget: {claude-code: 9999, codex: 6000}
//	the client's default               its row's Budget (clients.go)
//
// A value that is not a positive integer is ignored; one under MinBudget
// counts as MinBudget.
const (
	DefaultClaudeBudget = MaxText // under Claude Code's 10,000-character cap
	DefaultCodexBudget  = 8000    // about 2,000 tokens, under Codex's 2,500
	DefaultGeminiBudget = 8000    // as Codex's: the restart context, not a document
	MinBudget           = 1000
	configBudgetKey     = "hook_context_budget"
)

// ContextBudget resolves the budget of client's hooks from env (the value
// of ST_HOOK_CONTEXT_BUDGET) and the config folder.
func ContextBudget(client, env, configDir string) int {
	if n, ok := budgetValue(env); ok {
		return n
	}
	if configDir != "" {
		if data, err := readConfigYAML(configDir); err == nil {
			if n, ok := configBudget(data, client); ok {
				return n
			}
		}
	}
	if c, ok := ClientFor(client); ok {
		return c.Budget
	}
	return DefaultClaudeBudget
}

func budgetValue(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return 0, false
	}
	return max(n, MinBudget), true
}

// configBudget reads hook_context_budget: an integer, or a mapping from
// client to integer.
func configBudget(data []byte, client string) (int, bool) {
	var doc map[string]yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return 0, false
	}
	node, ok := doc[configBudgetKey]
	if !ok {
		return 0, false
	}
	if node.Kind == yaml.MappingNode {
		var per map[string]yaml.Node
		if node.Decode(&per) != nil {
			return 0, false
		}
		if node, ok = per[client]; !ok {
			return 0, false
		}
	}
	if node.Kind != yaml.ScalarNode {
		return 0, false
	}
	return budgetValue(node.Value)
}

// nowMDPath is the absolute path of agent's now.md, for the cut marker.
func nowMDPath(root, agent string) string {
	p := filepath.Join(root, agent, "context", "now.md")
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// splitBudget shares avail bytes between now.md's block and the inbox
// list, which need nowNeed and inboxNeed: when both do not fit, the inbox
// gets what now.md leaves, but at least a third (it is only pointers to
// files; now.md is the agent's state), and now.md the rest.
func splitBudget(avail, nowNeed, inboxNeed int) (nowMax, inboxMax int) {
	if nowNeed+inboxNeed <= avail {
		return nowNeed, inboxNeed
	}
	inboxMax = min(inboxNeed, max(avail/3, avail-nowNeed))
	return avail - inboxMax, inboxMax
}

// cutMiddle shortens now.md's bytes to at most limit by replacing the
// middle with a marker line that says how much was cut and where the
// whole file is (path). The head and the tail end and start on line
// breaks when one is near (lineSnap), else on UTF-8 boundaries. A limit
// too small for the marker gives the marker alone.
func cutMiddle(data []byte, limit int, path string) []byte {
	return cutMiddleOf(data, len(data), limit, path)
}

// cutMiddleOf is cutMiddle of a file of total bytes of which data holds
// the head and the tail (freshNow's read of a big now.md): the bytes
// never read lie in the middle, which the cut always covers as long as
// each half read is at least limit bytes.
func cutMiddleOf(data []byte, total, limit int, path string) []byte {
	unread := total - len(data)
	if len(data) <= limit && unread == 0 {
		return data
	}
	marker := func(n int) string {
		return fmt.Sprintf("\n[… st: %d of %d bytes of now.md cut here; read all of it with `st context read` or at %s …]\n",
			n+unread, total, path)
	}
	keep := max(limit-len(marker(len(data))), 0)
	head := keep / 2
	for head > 0 && !utf8.RuneStart(data[head]) {
		head--
	}
	if i := bytes.LastIndexByte(data[:head], '\n'); i >= 0 && head-(i+1) <= lineSnap {
		head = i + 1
	}
	tail := len(data) - (keep - head)
	for tail < len(data) && !utf8.RuneStart(data[tail]) {
		tail++
	}
	if i := bytes.IndexByte(data[tail:], '\n'); tail > 0 && data[tail-1] != '\n' && i >= 0 && i+1 <= lineSnap {
		tail += i + 1
	}
	m := marker(tail - head)
	if head == 0 || data[head-1] == '\n' {
		m = m[1:] // the head ends a line already
	}
	out := make([]byte, 0, limit)
	out = append(out, data[:head]...)
	out = append(out, m...)
	return append(out, data[tail:]...)
}

// lineSnap is how far cutMiddle moves a cut to land on a line break.
const lineSnap = 160

// fitCount is how many of n lines fit, in order, in limit bytes: size(k) is
// the whole text's size with the first k lines (lines and markers
// included); -1 when not even k = 0 fits.
func fitCount(n int, size func(k int) int, limit int) int {
	if size(n) <= limit {
		return n // all of them, without the marker (which may be longer than a line)
	}
	k := -1
	for i := 0; i <= n && size(i) <= limit; i++ {
		k = i
	}
	return k
}

// codexListText is the Codex hooks' inbox text, header then one line per
// item (oldest first) joined with "\n", in at most limit bytes. When not
// all fit it keeps the newest, after a marker line that says how many
// older ones are left out and how to list them. shown is how many of the
// newest items it names; "" (and 0) when not even the header fits.
func codexListText(header string, items []item, limit int) (text string, shown int) {
	lines := make([]string, len(items))
	for i, it := range items {
		lines[i] = itemLine(it, 0)
	}
	// sizes[k]: the header and the newest k lines.
	sizes := make([]int, len(lines)+1)
	sizes[0] = len(header)
	for k := 1; k <= len(lines); k++ {
		sizes[k] = sizes[k-1] + 1 + len(lines[len(lines)-k])
	}
	size := func(k int) int {
		if k == len(lines) {
			return sizes[k]
		}
		return sizes[k] + 1 + len(olderLeftOut(len(lines)-k))
	}
	k := fitCount(len(lines), size, limit)
	if k < 0 {
		return "", 0
	}
	parts := []string{header}
	if k < len(lines) {
		parts = append(parts, olderLeftOut(len(lines)-k))
	}
	parts = append(parts, lines[len(lines)-k:]...)
	return strings.Join(parts, "\n"), k
}

// olderLeftOut is the Codex lists' marker for the n oldest messages that
// did not fit.
func olderLeftOut(n int) string {
	noun := "messages"
	if n == 1 {
		noun = "message"
	}
	return fmt.Sprintf("… [%d older %s left out; list them with `st message ls`]", n, noun)
}
