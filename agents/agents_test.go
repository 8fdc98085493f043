package agents

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/storetest"
)

// store builds a root from a list of paths: a trailing "/" makes a
// folder, anything else a file holding content.
func store(t *testing.T, files map[string]string) (*fsutil.Tree, string) {
	t.Helper()
	return storetest.Open(t, files)
}

func setMtime(t *testing.T, path string, mt time.Time) {
	t.Helper()
	if err := os.Chtimes(path, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func TestIDs(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"empty root", map[string]string{}, []string{}},
		{"inbox only", map[string]string{"bob/inbox/": ""}, []string{"bob"}},
		{"archive only", map[string]string{"bob/archive/": ""}, []string{"bob"}},
		{"status only", map[string]string{"bob/status": "busy\n"}, []string{"bob"}},
		{"status folder counts as an entry", map[string]string{"bob/status/": ""}, []string{"bob"}},
		{"bare folder", map[string]string{"bob/": "", "bob/context/": ""}, []string{}},
		{"inbox is a file", map[string]string{"bob/inbox": "x"}, []string{}},
		{"hidden", map[string]string{".bob/inbox/": ""}, []string{}},
		{"reserved", map[string]string{"inbox/inbox/": "", "members/archive/": "", "overview/status": ""}, []string{}},
		{"invalid", map[string]string{"Bob/inbox/": "", "-b/inbox/": "", "b-/inbox/": "", "a b/inbox/": ""}, []string{}},
		{"a file at the root", map[string]string{"bob": "x"}, []string{}},
		{"sorted by bytes", map[string]string{"b/inbox/": "", "a.b/inbox/": "", "a-b/inbox/": "", "a/inbox/": "", "0/inbox/": ""},
			[]string{"0", "a", "a-b", "a.b", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _ := store(t, tt.files)
			if got := IDs(tr); !slices.Equal(got, tt.want) {
				t.Errorf("IDs = %q, want %q", got, tt.want)
			}
		})
	}
	if got := IDs(nil); len(got) != 0 {
		t.Errorf("IDs(nil) = %q, want none", got)
	}
}

func TestName(t *testing.T) {
	tests := []struct {
		content string
		want    string // "" means nil
	}{
		{"Bob\n", "Bob"},
		{"  Bob the Builder \t\nsecond\n", "Bob the Builder"},
		{"\u00a0Bob\u3000", "Bob"},
		{"   \n", ""},
		{"", ""},
		{"\nBob\n", ""},
		{"B\xffb", "B\ufffdb"},
	}
	for _, tt := range tests {
		tr, _ := store(t, map[string]string{"bob/inbox/": "", "bob/name": tt.content})
		got := Name(tr, "bob")
		if tt.want == "" {
			if got != nil {
				t.Errorf("Name(%q) = %q, want nil", tt.content, *got)
			}
			continue
		}
		if got == nil || *got != tt.want {
			t.Errorf("Name(%q) = %v, want %q", tt.content, got, tt.want)
		}
	}
	tr, _ := store(t, map[string]string{"bob/inbox/": ""})
	if got := Name(tr, "bob"); got != nil {
		t.Errorf("Name without a file = %q, want nil", *got)
	}
}

func TestMtimeMsMatchesNode(t *testing.T) {
	tr, root := store(t, map[string]string{"bob/status": "busy\n"})
	setMtime(t, filepath.Join(root, "bob/status"), time.Unix(1795966371, 663013200))
	fi, err := tr.Stat("bob/status")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := jsstr.Marshal(MtimeMs(fi))
	if got, want := string(out), "1795966371663.0132"; got != want {
		t.Errorf("mtimeMs = %s, want %s", got, want)
	}
	setMtime(t, filepath.Join(root, "bob/status"), time.Unix(1795966371, 663000000))
	fi, _ = tr.Stat("bob/status")
	out, _ = jsstr.Marshal(MtimeMs(fi))
	if got, want := string(out), "1795966371663"; got != want {
		t.Errorf("integral mtimeMs = %s, want %s", got, want)
	}
}

func TestLastActivityAndInbox(t *testing.T) {
	tr, root := store(t, map[string]string{
		"bob/inbox/1700000000000-aaaaaa.md":   "x",
		"bob/inbox/1700000000001-bbbbbb.md":   "x",
		"bob/inbox/notes.md":                  "x",
		"bob/inbox/.st-tmp.tmp":               "x",
		"bob/archive/1700000000002-cccccc.md": "x",
		"bob/status":                          "busy\n",
		"bob/context/now.md":                  "newest, but not counted",
		"carol/inbox/":                        "",
	})
	base := time.Unix(1795966000, 0)
	for p, off := range map[string]time.Duration{
		"bob/inbox/1700000000000-aaaaaa.md":   1 * time.Second,
		"bob/inbox/1700000000001-bbbbbb.md":   2 * time.Second,
		"bob/inbox/notes.md":                  3 * time.Second,
		"bob/inbox/.st-tmp.tmp":               5*time.Second + 250*time.Microsecond,
		"bob/archive/1700000000002-cccccc.md": 4 * time.Second,
		"bob/status":                          time.Second,
		"bob/context/now.md":                  time.Hour,
	} {
		setMtime(t, filepath.Join(root, p), base.Add(off))
	}
	got := Enrich(tr, []Agent{{Identity: "bob", Status: "busy"}, {Identity: "carol", Status: "offline"}}, base.Add(time.Minute))
	out, _ := jsstr.Marshal(got)
	want := `[{"identity":"bob","status":"busy","name":null,"lastActivity":1795966005000.25,"inbox":2},` +
		`{"identity":"carol","status":"offline","name":null,"lastActivity":null,"inbox":0}]`
	if string(out) != want {
		t.Errorf("Enrich =\n%s\nwant\n%s", out, want)
	}
}

func TestListFilters(t *testing.T) {
	now := time.Now()
	tr, root := store(t, map[string]string{
		"a/status": "busy\n",
		"b/status": "available\n",
		"c/status": "busy\n",
		"d/inbox/": "",
	})
	setMtime(t, filepath.Join(root, "c/status"), now.Add(-16*time.Minute))
	tests := []struct {
		opts Options
		want []string
	}{
		{Options{}, []string{"a", "b", "c", "d"}},
		{Options{Status: "busy"}, []string{"a"}},
		{Options{Status: "unknown"}, []string{"c"}},
		{Options{Status: "offline"}, []string{"d"}},
		{Options{Status: "bogus"}, []string{}},
		{Options{Except: "b"}, []string{"a", "c", "d"}},
		{Options{Except: "a", Status: "busy"}, []string{}},
		{Options{Except: "nobody"}, []string{"a", "b", "c", "d"}},
	}
	for _, tt := range tests {
		var got []string
		for _, a := range List(tr, now, tt.opts) {
			got = append(got, a.Identity)
		}
		if got == nil {
			got = []string{}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("List(%+v) = %q, want %q", tt.opts, got, tt.want)
		}
	}
	out, _ := jsstr.Marshal(List(tr, now, Options{Status: "bogus"}))
	if string(out) != "[]" {
		t.Errorf("empty list marshals as %s, want []", out)
	}
}
