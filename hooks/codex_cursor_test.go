package hooks

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func items(tss ...float64) []item {
	var out []item
	for i, ts := range tss {
		out = append(out, item{Filename: string(rune('a'+i)) + ".md", TS: ts})
	}
	return out
}

func TestAdvanceMark(t *testing.T) {
	tests := []struct {
		name   string
		mark   int64
		listed []item
		now    int64
		want   int64
	}{
		{"nothing listed keeps the mark", 500, nil, 9000, 500},
		{"nothing listed, no cursor yet", 0, nil, 9000, 0},
		{"newest listed, not the clock", 0, items(100, 300, 200), 9000, 300},
		{"fractional mtime floors", 0, items(300.75), 9000, 300},
		{"a future stamp is clamped to the clock", 0, items(100, 20000), 9000, 9000},
		{"never moves back", 700, items(100, 300), 9000, 700},
	}
	for _, tt := range tests {
		if got := advanceMark(tt.mark, tt.listed, tt.now); got != tt.want {
			t.Errorf("%s: advanceMark = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestParseCursor(t *testing.T) {
	tests := []struct {
		in   string
		mark int64
		seen []string
	}{
		{"1784628000000", 1784628000000, nil},
		{"1784628000000\n", 1784628000000, nil},
		{"1784628000000\na.md\n\nb.md\n", 1784628000000, []string{"a.md", "b.md"}},
		{"12ab\na.md\n", 0, nil},
		{"-5\na.md\n", 0, nil},
		{"", 0, nil},
		{"99999999999999999999999\n", 0, nil},
	}
	for _, tt := range tests {
		mark, seen := parseCursor(tt.in)
		got := slices.Sorted(maps.Keys(seen))
		if mark != tt.mark || !slices.Equal(got, tt.seen) {
			t.Errorf("parseCursor(%q) = %d %v, want %d %v", tt.in, mark, got, tt.mark, tt.seen)
		}
	}
}

func TestCursorUnseen(t *testing.T) {
	c := &codexCursor{mark: 10000, seen: map[string]bool{"a.md": true}}
	listed := []item{
		{Filename: "old.md", TS: 4999},   // before the slack window
		{Filename: "a.md", TS: 9000},     // announced already
		{Filename: "late.md", TS: 6000},  // in flight when the mark moved
		{Filename: "edge.md", TS: 10000}, // same ms as the mark, not seen
	}
	var got []string
	for _, it := range c.unseen(listed) {
		got = append(got, it.Filename)
	}
	if want := []string{"late.md", "edge.md"}; !slices.Equal(got, want) {
		t.Errorf("unseen = %v, want %v", got, want)
	}
}

func TestRootKey(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	if err := os.Mkdir(root, 0o777); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	k1, abs := rootKey(root)
	k2, _ := rootKey(link)
	k3, _ := rootKey(root + "/")
	k4, _ := rootKey(filepath.Join(dir, "other"))
	if k1 != k2 || k1 != k3 {
		t.Errorf("one root, several keys: %s %s %s", k1, k2, k3)
	}
	if k1 == k4 {
		t.Errorf("two roots, one key %s", k1)
	}
	if len(k1) != 16 || strings.Trim(k1, "0123456789abcdef") != "" {
		t.Errorf("key %q is not 16 hex digits", k1)
	}
	if !filepath.IsAbs(abs) {
		t.Errorf("ROOT %q is not absolute", abs)
	}
}

// Two Stops of one agent at once announce a message once between them.
func TestCodexStopConcurrentAnnouncesOnce(t *testing.T) {
	opt := testOptions(t)
	writeFile(t, filepath.Join(opt.Root, "alice", "inbox", "1784628000000-aaaaaa.md"), "---\nfrom: bob\n---\nhi\n")
	for round := range 5 {
		name := filepath.Join(opt.Root, "alice", "inbox", "17846280"+string(rune('1'+round))+"0000-bbbbbb.md")
		writeFile(t, name, "---\nfrom: bob\n---\nhi\n")
		var wg sync.WaitGroup
		outs := make([]string, 4)
		for i := range outs {
			wg.Go(func() { outs[i] = string(runCodexStop(opt, client(Codex)).Stdout) })
		}
		wg.Wait()
		announced := 0
		for _, out := range outs {
			announced += strings.Count(out, "bbbbbb")
		}
		if announced != 1 {
			t.Fatalf("round %d: announced %d times: %q", round, announced, outs)
		}
	}
}

// SessionStart then Stop: what SessionStart listed is not repeated, what
// came after is announced once; bob's cursor is untouched by alice's.
func TestCodexCursorSessionStartThenStop(t *testing.T) {
	opt := testOptions(t)
	now := fixed
	opt.Now = func() time.Time { return now }
	inbox := filepath.Join(opt.Root, "alice", "inbox")
	writeFile(t, filepath.Join(inbox, "1784628000000-aaaaaa.md"), "---\nfrom: bob\n---\nhi\n")
	if out := string(runCodexSessionStart(opt, client(Codex)).Stdout); !strings.Contains(out, "aaaaaa") {
		t.Fatalf("SessionStart did not list the message: %q", out)
	}
	if out := runCodexStop(opt, client(Codex)).Stdout; len(out) != 0 {
		t.Fatalf("first Stop repeated SessionStart: %q", out)
	}
	writeFile(t, filepath.Join(inbox, "1784628001000-bbbbbb.md"), "---\nfrom: bob\n---\nhi\n")
	if out := string(runCodexStop(opt, client(Codex)).Stdout); !strings.Contains(out, "bbbbbb") || strings.Contains(out, "aaaaaa") {
		t.Fatalf("Stop after an arrival = %q", out)
	}
	if out := runCodexStop(opt, client(Codex)).Stdout; len(out) != 0 {
		t.Fatalf("second Stop repeated the arrival: %q", out)
	}
	bob := opt
	bob.Agent = "bob"
	writeFile(t, filepath.Join(opt.Root, "bob", "inbox", "1784627000000-cccccc.md"), "---\nfrom: alice\n---\nhi\n")
	if out := string(runCodexStop(bob, client(Codex)).Stdout); !strings.Contains(out, "cccccc") {
		t.Fatalf("bob's Stop = %q", out)
	}
}

// A Stop that finds nothing new leaves the cursor file alone (no write,
// no fsync on every turn).
func TestCodexStopKeepsUnchangedCursor(t *testing.T) {
	opt := testOptions(t)
	writeFile(t, filepath.Join(opt.Root, "alice", "inbox", "1784627000000-aaaaaa.md"), "---\nfrom: bob\n---\nhi\n")
	runCodexStop(opt, client(Codex))
	matches, _ := filepath.Glob(filepath.Join(opt.StateDir, client(Codex).CursorDir, "*", "alice"+cursorSuffix))
	if len(matches) != 1 {
		t.Fatalf("cursor files: %v", matches)
	}
	before, err := os.Stat(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if out := runCodexStop(opt, client(Codex)).Stdout; len(out) != 0 {
		t.Fatalf("second Stop = %q", out)
	}
	after, err := os.Stat(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("the unchanged cursor was rewritten")
	}
}

// Over the budget, codex-session-start and codex-stop name the newest
// messages and leave the older ones unannounced: each later Stop names
// the next older batch, until every message was named exactly once.
func TestCodexBudgetKeepsNewestAndAnnouncesTheRestLater(t *testing.T) {
	for _, start := range []bool{false, true} {
		opt := testOptions(t)
		opt.ContextBudget = "1000"
		for i := range 200 {
			writeFile(t, filepath.Join(opt.Root, "alice", "inbox", fmt.Sprintf("%d-aaaaaa.md", 1784627000000+i)),
				fmt.Sprintf("---\nfrom: bob\nsubject: msg-%03d\n---\nhi\n", i))
		}
		named := map[string]int{}
		var texts []string
		if start {
			texts = append(texts, codexText(t, runCodexSessionStart(opt, client(Codex))))
		}
		for range 20 {
			texts = append(texts, codexText(t, runCodexStop(opt, client(Codex))))
		}
		for i, text := range texts {
			if text == "" {
				continue
			}
			got := regexp.MustCompile(`msg-\d{3}`).FindAllString(text, -1)
			for _, m := range got {
				named[m]++
			}
			if i == 0 && got[len(got)-1] != "msg-199" {
				t.Errorf("start %v: the first list does not end with the newest message:\n%s", start, text)
			}
			if len(got) < 200-len(named)+len(got) && !strings.Contains(text, "older messages left out; list them with `st message ls`]") {
				t.Errorf("start %v: text %d names %d of the rest without saying the others are left out:\n%s", start, i, len(got), text)
			}
		}
		for i := range 200 {
			if n := named[fmt.Sprintf("msg-%03d", i)]; n != 1 {
				t.Errorf("start %v: msg-%03d named %d times", start, i, n)
			}
		}
		if texts[len(texts)-1] != "" {
			t.Errorf("start %v: still announcing after everything was named", start)
		}
	}
}

// codexText is the context or reason a Codex hook's output carries.
func codexText(t *testing.T, res Result) string {
	t.Helper()
	if len(res.Stdout) == 0 {
		return ""
	}
	var out struct {
		Reason string `json:"reason"`
		HSO    struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(res.Stdout, &out); err != nil {
		t.Fatalf("%v: %s", err, res.Stdout)
	}
	return out.Reason + out.HSO.AdditionalContext
}
