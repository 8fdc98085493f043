package context

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

func newTree(t *testing.T) (*fsutil.Tree, string) {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "alice", "inbox"), 0o777)
	tr, err := fsutil.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, root
}

func put(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	os.MkdirAll(filepath.Dir(p), 0o777)
	if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
}

func TestNowBytes(t *testing.T) {
	tests := map[string]string{
		"":          "\n",
		"x":         "x\n",
		"x\n":       "x\n",
		"x\n\n":     "x\n\n",
		"é":         "é\n",
		"a\xffb":    "a\uFFFDb\n",
		"\r":        "\r\n",
		"a\xe2\x82": "a\uFFFD\n",
	}
	for in, want := range tests {
		if got := string(NowBytes([]byte(in))); got != want {
			t.Errorf("NowBytes(%q) = %q, want %q", in, got, want)
		}
	}
	// The input is never modified in place.
	in := make([]byte, 1, 10)
	in[0] = 'x'
	NowBytes(in)
	if string(in[:cap(in)][:2]) != "x\x00" {
		t.Errorf("NowBytes wrote into the caller's spare capacity")
	}
}

func TestWriteReadNow(t *testing.T) {
	tr, root := newTree(t)
	if _, ok := ReadNow(tr, "alice"); ok {
		t.Error("missing now.md reads as present")
	}
	if _, err := os.Stat(filepath.Join(root, "alice", "context")); err == nil {
		t.Error("a read created context/")
	}
	for _, body := range []string{"first", "second\n", "é\n"} {
		n, err := WriteNow(tr, "alice", []byte(body))
		want := string(NowBytes([]byte(body)))
		if err != nil || n != len(want) {
			t.Fatalf("WriteNow(%q) = %d, %v", body, n, err)
		}
		got, ok := ReadNow(tr, "alice")
		if !ok || got != want {
			t.Errorf("ReadNow = %q, %v; want %q", got, ok, want)
		}
	}
	if n, _ := WriteNow(tr, "alice", []byte("é\n")); n != 3 {
		t.Errorf("é\\n counted %d bytes, want 3", n)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "alice", "context"))
	if len(entries) != 1 || entries[0].Name() != "now.md" {
		t.Errorf("context/ holds %v, want only now.md", entries)
	}
	if _, ok := ReadNow(nil, "alice"); ok {
		t.Error("nil tree")
	}
}

func TestDecisions(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // relative to alice/context
		want  string
		ok    bool
	}{
		{"none", nil, "", false},
		{"empty folder", map[string]string{"decisions/.keep": ""}, "", false},
		{"only empty entries", map[string]string{"decisions/1.md": " \n\n"}, "", false},
		{"name order", map[string]string{"decisions/b.md": "- b\n", "decisions/a.md": "- a\n\n", "decisions/c.txt": "- c\n"}, "- a\n- b\n", true},
		{"trailing whitespace cut", map[string]string{"decisions/1.md": "- x \t\n\u3000\n"}, "- x\n", true},
		{"legacy first", map[string]string{"decisions.md": "- 2026-07-02T22:00:00.000Z a. why: b.\n", "decisions/0000000000000-aaaaaa.md": "- e\n"}, "- 2026-07-02T22:00:00.000Z a. why: b.\n- e\n", true},
		{"legacy alone", map[string]string{"decisions.md": "- l1\n- l2\n\n"}, "- l1\n- l2\n", true},
		{"legacy whitespace only", map[string]string{"decisions.md": "  \n"}, "", false},
		{"dot md file read", map[string]string{"decisions/.md": "- hidden\n"}, "- hidden\n", true},
		{"invalid utf8", map[string]string{"decisions/1.md": "- \xff\n"}, "- \uFFFD\n", true},
	}
	for _, tt := range tests {
		tr, root := newTree(t)
		for rel, c := range tt.files {
			put(t, root, filepath.Join("alice", "context", rel), c)
		}
		got, ok := Decisions(tr, "alice")
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: Decisions = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := Decisions(nil, "alice"); ok {
		t.Error("nil tree")
	}
}

func TestFull(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
		ok    bool
	}{
		{"none", nil, "", false},
		{"now only", map[string]string{"now.md": "n\n"}, "# now.md\nn\n", true},
		{"decisions only", map[string]string{"decisions/1.md": "- d\n"}, "# decisions/\n- d\n", true},
		{"both", map[string]string{"now.md": "n\n", "decisions/1.md": "- d\n"}, "# now.md\nn\n\n\n# decisions/\n- d\n", true}, // two blank lines: now.md ends in \n,
		{"empty decisions folder", map[string]string{"now.md": "n\n", "decisions/x.txt": "y"}, "# now.md\nn\n", true},
		{"legacy under decisions", map[string]string{"decisions.md": "- l\n"}, "# decisions/\n- l\n", true},
	}
	for _, tt := range tests {
		tr, root := newTree(t)
		for rel, c := range tt.files {
			put(t, root, filepath.Join("alice", "context", rel), c)
		}
		got, ok := Full(tr, "alice")
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: Full = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCheckDecision(t *testing.T) {
	const multi = "context append: --decision and --why must be single lines. Multi-line reasoning belongs in a doc; the log is a scannable list."
	tests := []struct {
		d, w         string
		wantD, wantW string
		err          string
	}{
		{"thing", "reason", "thing", "reason", ""},
		{"chose X.", "because.", "chose X", "because", ""},
		{"two dots..", "w", "two dots.", "w", ""},
		{"  padded \n", "\twhy\u3000", "padded", "why", ""},
		{"", "w", "", "", "--decision is required and cannot be empty"},
		{" \t\n", "w", "", "", "--decision is required and cannot be empty"},
		{"d", "", "", "", "--why is required and cannot be empty"},
		{"d", "\u00a0", "", "", "--why is required and cannot be empty"},
		{"a\nb", "w", "", "", multi},
		{"d", "a\rb", "", "", multi},
		{"", "", "", "", "--decision is required and cannot be empty"},
	}
	for _, tt := range tests {
		d, w, err := CheckDecision(tt.d, tt.w)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("CheckDecision(%q, %q) err = %v, want %q", tt.d, tt.w, err, tt.err)
			}
			continue
		}
		if err != nil || d != tt.wantD || w != tt.wantW {
			t.Errorf("CheckDecision(%q, %q) = %q, %q, %v", tt.d, tt.w, d, w, err)
		}
	}
}

func TestAppend(t *testing.T) {
	tr, root := newTree(t)
	legacy := "- 2026-07-02T22:00:00.000Z a. why: b.\n"
	put(t, root, "alice/context/decisions.md", legacy)
	now := time.UnixMilli(1795966371663)
	e, err := Append(tr, "alice", "has a period.", "also has a period.", now)
	if err != nil {
		t.Fatal(err)
	}
	wantLine := "- 2026-11-29T15:32:51.663Z has a period. why: also has a period."
	if e.Line != wantLine {
		t.Errorf("line = %q, want %q", e.Line, wantLine)
	}
	if !message.IsCanonical(e.Filename) || !strings.HasPrefix(e.Filename, "1795966371663-") {
		t.Errorf("filename = %q", e.Filename)
	}
	data, _ := os.ReadFile(filepath.Join(root, "alice", "context", "decisions", e.Filename))
	if string(data) != wantLine+"\n" {
		t.Errorf("file = %q", data)
	}
	e2, err := Append(tr, "alice", "second", "w", now.Add(time.Millisecond))
	if err != nil || e2.Filename <= e.Filename {
		t.Errorf("second entry %q not after %q (%v)", e2.Filename, e.Filename, err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "alice", "context", "decisions.md")); string(got) != legacy {
		t.Errorf("append modified the legacy file: %q", got)
	}
	got, _ := Decisions(tr, "alice")
	if want := legacy + wantLine + "\n" + e2.Line + "\n"; got != want {
		t.Errorf("Decisions = %q, want %q", got, want)
	}
	if _, err := Append(tr, "alice", "", "w", now); err == nil {
		t.Error("empty decision accepted")
	}
	entries, _ := os.ReadDir(filepath.Join(root, "alice", "context", "decisions"))
	if len(entries) != 2 {
		t.Errorf("decisions/ holds %d entries, want 2 (no temps, nothing for the refused one)", len(entries))
	}
}

func TestAppendStampedNaming(t *testing.T) {
	now := time.UnixMilli(1795966371663)
	tests := []struct {
		stamp  string
		prefix string
	}{
		{"2026-07-02T22:00:00.000Z", "1783029600000-"},
		{"2026-07-02T22:00:00Z", "1783029600000-"},
		{"2026-07-02T22:00:00.5+02:00", "1783022400500-"},
		{"2026-07-02", "1782950400000-"},
		{"not a time", "1795966371663-"},
		{"", "1795966371663-"},
	}
	for _, tt := range tests {
		tr, root := newTree(t)
		e, err := AppendStamped(tr, "alice", "d", "w", tt.stamp, now)
		if err != nil {
			t.Fatalf("%q: %v", tt.stamp, err)
		}
		if !strings.HasPrefix(e.Filename, tt.prefix) {
			t.Errorf("stamp %q named %q, want prefix %q", tt.stamp, e.Filename, tt.prefix)
		}
		if want := "- " + tt.stamp + " d. why: w."; e.Line != want {
			t.Errorf("line = %q, want %q", e.Line, want)
		}
		if _, err := os.Stat(filepath.Join(root, "alice", "context", "decisions", e.Filename)); err != nil {
			t.Error(err)
		}
	}
}
