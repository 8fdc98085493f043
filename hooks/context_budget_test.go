package hooks

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestContextBudget(t *testing.T) {
	tests := []struct {
		name, client, env, config string
		want                      int
	}{
		{"claude default", ClaudeCode, "", "", DefaultClaudeBudget},
		{"codex default", Codex, "", "", DefaultCodexBudget},
		{"env", Codex, "6000", "", 6000},
		{"env with spaces", ClaudeCode, " 4000 ", "", 4000},
		{"env under the minimum", Codex, "10", "", MinBudget},
		{"env zero is ignored", Codex, "0", "", DefaultCodexBudget},
		{"env negative is ignored", Codex, "-5", "", DefaultCodexBudget},
		{"env not a number is ignored", Codex, "8k", "", DefaultCodexBudget},
		{"env beats config", Codex, "3000", "hook_context_budget: 5000\n", 3000},
		{"config for all", ClaudeCode, "", "hook_context_budget: 5000\n", 5000},
		{"config per client", Codex, "", "hook_context_budget: {claude-code: 9000, codex: 4000}\n", 4000},
		{"config per client, other", ClaudeCode, "", "hook_context_budget: {claude-code: 9000, codex: 4000}\n", 9000},
		{"config without this client", ClaudeCode, "", "hook_context_budget: {codex: 4000}\n", DefaultClaudeBudget},
		{"config under the minimum", Codex, "", "hook_context_budget: 1\n", MinBudget},
		{"config not a number", Codex, "", "hook_context_budget: lots\n", DefaultCodexBudget},
		{"config a list", Codex, "", "hook_context_budget: [1, 2]\n", DefaultCodexBudget},
		{"config broken YAML", Codex, "", "hook_context_budget: [\n", DefaultCodexBudget},
		{"config other keys only", Codex, "", "operator: ops\n", DefaultCodexBudget},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if tt.config != "" {
			writeFile(t, filepath.Join(dir, "config.yaml"), tt.config)
		}
		if got := ContextBudget(tt.client, tt.env, dir); got != tt.want {
			t.Errorf("%s: ContextBudget = %d, want %d", tt.name, got, tt.want)
		}
	}
	if got := ContextBudget(Codex, "", ""); got != DefaultCodexBudget {
		t.Errorf("no config dir: %d", got)
	}
}

var cutMarker = regexp.MustCompile("\\[… st: (\\d+) of (\\d+) bytes of now.md cut here; read all of it with `st context read` or at /abs/now.md …\\]\n")

func TestCutMiddle(t *testing.T) {
	texts := map[string]string{
		"ascii":   strings.Repeat("hello world\n", 300),
		"utf8":    strings.Repeat("héllo wörld — 日本語 🙂\n", 150), // 1- to 4-byte runes
		"oneline": strings.Repeat("日本語🙂é", 300),                 // no line break to snap to
	}
	for name, text := range texts {
		data := []byte(text)
		if got := cutMiddle(data, len(data), "/abs/now.md"); !bytes.Equal(got, data) {
			t.Errorf("%s: a file of exactly the limit was cut", name)
		}
		for limit := 200; limit < len(data); limit += 7 {
			got := cutMiddle(data, limit, "/abs/now.md")
			if len(got) > limit {
				t.Fatalf("%s: cutMiddle(%d) gave %d bytes", name, limit, len(got))
			}
			if !utf8.Valid(got) {
				t.Fatalf("%s: cutMiddle(%d) cut inside a rune", name, limit)
			}
			m := cutMarker.FindSubmatchIndex(got)
			if m == nil {
				t.Fatalf("%s: cutMiddle(%d) has no marker: %q", name, limit, got)
			}
			cut, _ := strconv.Atoi(string(got[m[2]:m[3]]))
			total, _ := strconv.Atoi(string(got[m[4]:m[5]]))
			head, tail := got[:m[0]], got[m[1]:]
			if len(head)+cut+len(tail) != len(data) && bytes.HasSuffix(head, []byte("\n")) {
				head = head[:len(head)-1] // the marker's own line break
			}
			if total != len(data) || len(head)+cut+len(tail) != len(data) {
				t.Fatalf("%s: cutMiddle(%d) says %d of %d cut, kept %d+%d", name, limit, cut, total, len(head), len(tail))
			}
			if !bytes.HasPrefix(data, head) || !bytes.HasSuffix(data, tail) {
				t.Fatalf("%s: cutMiddle(%d) kept something that is not the head and tail", name, limit)
			}
			if name != "oneline" && (len(head) > 0 && !bytes.HasSuffix(head, []byte("\n")) || data[len(data)-len(tail)-1] != '\n') {
				t.Fatalf("%s: cutMiddle(%d) cut inside a line: %q", name, limit, got)
			}
			if limit-len(got) > 2*lineSnap {
				t.Fatalf("%s: cutMiddle(%d) wasted %d bytes", name, limit, limit-len(got))
			}
		}
	}
	// A limit below the marker's size keeps nothing but the marker.
	got := cutMiddle([]byte(texts["ascii"]), 10, "/abs/now.md")
	if m := cutMarker.FindIndex(got); m == nil || m[0] != 0 || m[1] != len(got) {
		t.Errorf("cutMiddle(10) = %q", got)
	}
}

func TestSplitBudget(t *testing.T) {
	tests := []struct{ avail, nowNeed, inboxNeed, nowMax, inboxMax int }{
		{9000, 1000, 1000, 1000, 1000},   // both fit
		{9000, 4500, 4500, 4500, 4500},   // exactly
		{9000, 20000, 500, 8500, 500},    // a small inbox keeps all of it
		{9000, 500, 20000, 500, 8500},    // a small now.md keeps all of it
		{9000, 20000, 20000, 6000, 3000}, // both large: the inbox gets a third
		{9000, 7000, 20000, 6000, 3000},
	}
	for _, tt := range tests {
		nowMax, inboxMax := splitBudget(tt.avail, tt.nowNeed, tt.inboxNeed)
		if nowMax != tt.nowMax || inboxMax != tt.inboxMax {
			t.Errorf("splitBudget(%d, %d, %d) = %d, %d; want %d, %d",
				tt.avail, tt.nowNeed, tt.inboxNeed, nowMax, inboxMax, tt.nowMax, tt.inboxMax)
		}
	}
}

func listItems(n int, subject string) []item {
	out := make([]item, n)
	for i := range out {
		from, subj := "bob", subject
		out[i] = item{Filename: fmt.Sprintf("%013d-aaaaaa.md", 1784628000000+i), TS: float64(1784628000000 + i), From: &from, Subject: &subj}
	}
	return out
}

// Over its budget the Codex list keeps the newest messages, after a
// marker counting the older ones left out, and says how many it names.
func TestCodexListText(t *testing.T) {
	items := listItems(20, "déploy ✓")
	full, shown := codexListText("## st inbox (20 unread)", items, math.MaxInt)
	lines := strings.Split(full, "\n")
	if len(lines) != 21 || shown != 20 || lines[1] != itemLine(items[0], 0) || strings.Contains(full, "left out") {
		t.Fatalf("uncut text = %q (%d shown)", full, shown)
	}
	if got, _ := codexListText("## st inbox (20 unread)", items, len(full)); got != full {
		t.Errorf("a text of exactly the budget was cut: %q", got)
	}
	for limit := len(full) - 1; limit >= 0; limit-- {
		got, shown := codexListText("## st inbox (20 unread)", items, limit)
		if len(got) > limit || !utf8.ValidString(got) {
			t.Fatalf("limit %d: %d bytes: %q", limit, len(got), got)
		}
		if got == "" {
			if shown != 0 || limit >= len("## st inbox (20 unread)\n"+olderLeftOut(20)) {
				t.Fatalf("limit %d: nothing kept (%d shown)", limit, shown)
			}
			continue
		}
		kept := strings.Split(got, "\n")
		n := len(kept) - 2 // lines kept, without the header and the marker
		if n != shown {
			t.Fatalf("limit %d: %d lines, %d said shown", limit, n, shown)
		}
		if want := fmt.Sprintf("… [%d older messages left out; list them with `st message ls`]", 20-n); kept[1] != want && 20-n > 1 {
			t.Fatalf("limit %d: marker %q, want %q", limit, kept[1], want)
		}
		if !strings.HasSuffix(full, "\n"+strings.Join(kept[2:], "\n")) && n > 0 {
			t.Fatalf("limit %d: kept lines are not the newest ones: %q", limit, got)
		}
		if n > 0 && kept[len(kept)-1] != itemLine(items[19], 0) {
			t.Fatalf("limit %d: the newest message is not last: %q", limit, got)
		}
		// One more line would not have fitted.
		if n+1 <= 20 {
			more := len(got) + 1 + len(lines[20-n])
			if n+1 == 20 {
				more -= 1 + len(olderLeftOut(20-n))
			} else {
				more += len(olderLeftOut(19-n)) - len(olderLeftOut(20-n))
			}
			if more <= limit {
				t.Fatalf("limit %d: kept %d lines, one more fits", limit, n)
			}
		}
	}
}

func TestInboxSummaryLimit(t *testing.T) {
	items := listItems(12, "hello")
	full := inboxSummary(items, -1)
	if !strings.HasPrefix(full, "## st inbox (12 unread)\n- 1784628000011-aaaaaa.md  bob  Subject: hello\n") ||
		!strings.HasSuffix(full, "- … and 7 older (`st message ls`)\n\n") {
		t.Fatalf("inboxSummary = %q", full)
	}
	if got := inboxSummary(items, len(full)); got != full {
		t.Errorf("a summary of exactly the limit was cut")
	}
	prev := 5
	for limit := len(full) - 1; limit >= 0; limit-- {
		got := inboxSummary(items, limit)
		if len(got) > limit {
			t.Fatalf("limit %d: %d bytes", limit, len(got))
		}
		if got == "" {
			continue
		}
		shown := strings.Count(got, "  bob  ")
		if shown > prev || !strings.Contains(got, fmt.Sprintf("- … and %d older (`st message ls`)\n\n", 12-shown)) {
			t.Fatalf("limit %d: %q", limit, got)
		}
		prev = shown
	}
	if inboxSummary(nil, -1) != "" {
		t.Error("an empty inbox has a summary")
	}
}

// The whole session-start and codex-session-start texts stay within the
// budget, whatever the mix of now.md and inbox, and are unchanged when
// they fit.
func TestInjectedTextWithinBudget(t *testing.T) {
	opt := testOptions(t)
	opt.Inbox = true
	opt.Now = time.Now // now.md is fresh
	now := strings.Repeat("état — ", 3000)
	for _, nowSize := range []int{0, 100, 5000, len(now)} {
		for nowSize < len(now) && !utf8.RuneStart(now[nowSize]) {
			nowSize--
		}
		writeFile(t, filepath.Join(opt.Root, "alice/context/now.md"), now[:nowSize])
		for _, budget := range []int{MinBudget, 2000, 4000, 8000, 9999} {
			for _, n := range []int{0, 3, 40} {
				items := listItems(n, strings.Repeat("ü", 40))
				data := []byte(now[:nowSize])
				for _, text := range []string{
					sessionStartText(opt, budget),
					first(codexStartText(opt, nowMD{data, len(data)}, true, items, budget)),
				} {
					if len(text) > budget || !utf8.ValidString(text) {
						t.Fatalf("now %d, %d items, budget %d: %d bytes", nowSize, n, budget, len(text))
					}
					if nowSize == len(now) && !strings.Contains(text, "bytes of now.md cut here") {
						t.Fatalf("now %d, %d items, budget %d: no cut marker", nowSize, n, budget)
					}
				}
				if full, _ := codexStartText(opt, nowMD{data, len(data)}, true, items, math.MaxInt); len(full) <= budget {
					if got, _ := codexStartText(opt, nowMD{data, len(data)}, true, items, budget); got != full {
						t.Fatalf("now %d, %d items, budget %d: cut a text that fits", nowSize, n, budget)
					}
				}
			}
		}
	}
}

func first(s string, _ int) string { return s }
