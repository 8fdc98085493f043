package wiring

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unwritableDir is an existing folder this process cannot write in: a
// read-only one of its own when it is not root, else /sys (sysfs refuses
// new files even to root). "" when neither works here.
func unwritableDir(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if f, err := os.CreateTemp(dir, "x"); err != nil {
		return dir
	} else {
		f.Close()
	}
	if f, err := os.CreateTemp("/sys", "x"); err == nil {
		f.Close()
		os.Remove(f.Name())
		return ""
	}
	if fi, err := os.Stat("/sys"); err == nil && fi.IsDir() {
		return "/sys"
	}
	return ""
}

func TestCheckStore(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, nil, 0o644)
	ok := filepath.Join(tmp, "ok")
	os.MkdirAll(filepath.Join(ok, "alice"), 0o755)
	ro := unwritableDir(t)
	for _, tc := range []struct {
		name string
		s    StoreCheck
		want []string // FAIL lines' starts, in order
	}{
		{"healthy", StoreCheck{Root: ok, Agent: "alice", AgentVar: "ST_AGENT", StateDir: filepath.Join(tmp, "state")}, nil},
		{"no agent", StoreCheck{Root: ok, StateDir: ok}, nil},
		{"invalid agent", StoreCheck{Root: ok, Agent: "Alice", AgentVar: "ST_AGENT", StateDir: ok},
			[]string{"agent: ST_AGENT=Alice is not a valid agent name"}},
		{"root a file", StoreCheck{Root: file, StateDir: ok}, []string{"store: " + file + " is a file"}},
		{"state below a file", StoreCheck{Root: ok, StateDir: filepath.Join(file, "state")},
			[]string{"state folder: " + file + "/state cannot be created: " + file + " is a file"}},
		{"full disk", StoreCheck{Root: ok, StateDir: ok, MinFree: 1 << 62},
			[]string{"store: only ", "state folder: only "}},
		{"read-only root", StoreCheck{Root: ro, StateDir: ok}, []string{"store: " + ro + " is not writable"}},
		{"read-only parent", StoreCheck{Root: filepath.Join(ro, "st"), StateDir: ok},
			[]string{"store: " + ro + "/st cannot be created: " + ro + " is not writable"}},
	} {
		if ro == "" && strings.HasPrefix(tc.name, "read-only") {
			t.Logf("%s: skipped, no unwritable folder here", tc.name)
			continue
		}
		var got []string
		var out strings.Builder
		checkStore(tc.s, func(f string, a ...any) { got = append(got, strings.TrimSpace(fmtLine(f, a...))) }, &out)
		if len(got) != len(tc.want) {
			t.Errorf("%s: FAIL lines %q, want %d starting %q", tc.name, got, len(tc.want), tc.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("%s: FAIL %q, want it to start %q", tc.name, got[i], tc.want[i])
			}
		}
		if len(tc.want) == 0 && !strings.Contains(out.String(), "ok    store: "+tc.s.Root+" writable") {
			t.Errorf("%s: no ok line:\n%s", tc.name, out.String())
		}
	}
}

func TestSuggestAgent(t *testing.T) {
	for in, want := range map[string]string{"Alice": "alice", "Bob Smith": "bob-smith", "-x_": "x", "!!": "alice", "status": "alice"} {
		if got := suggestAgent(in); got != want {
			t.Errorf("suggestAgent(%q) = %q, want %q", in, got, want)
		}
	}
}

func fmtLine(f string, a ...any) string { return fmt.Sprintf(f, a...) }
