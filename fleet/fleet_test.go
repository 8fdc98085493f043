package fleet

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
)

func tree(t *testing.T) *fsutil.Tree {
	t.Helper()
	tr, err := fsutil.OpenOrCreate(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestHostName(t *testing.T) {
	for in, want := range map[string]string{
		"build-1.example.com": "build-1.example.com",
		"..hidden":            "hidden",
		"a b/c":               "a-b-c",
		"":                    "",
		"ünï":                 "--n--",
	} {
		if got := HostName(in); got != want {
			t.Errorf("HostName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseStaleAfter(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"60": time.Minute, "0.5": 500 * time.Millisecond, "": 0, "0": 0, "1_000": 0, "0x10": 0, "-5": 0, "1e3": 0,
	} {
		if got := ParseStaleAfter(in); got != want {
			t.Errorf("ParseStaleAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

// The newest record of a host wins; older ones are pruned, and one that
// comes back (from a peer that still had it) loses again.
func TestNewestRecordWinsAndOldOnesGo(t *testing.T) {
	tr := tree(t)
	for _, at := range []int64{1000, 3000, 2000} {
		if err := Write(tr, Record{Host: "b", At: at, Agents: map[string]int64{"bob": at}}); err != nil {
			t.Fatal(err)
		}
	}
	names, _ := tr.ReadDirNames(Dir + "/b")
	// 2000 is older than the 3000 already there: written as 3001.
	if !slices.Equal(names, []string{"3001.json"}) {
		t.Errorf("records = %v", names)
	}
	if err := os.WriteFile(filepath.Join(tr.Base(), Dir, "b", "1000.json"), []byte(`{"host":"b","at":1000}`), 0o666); err != nil {
		t.Fatal(err)
	}
	if r := Records(tr)["b"]; r.At != 3001 {
		t.Errorf("newest = %+v", r)
	}
	Prune(tr)
	if names, _ := tr.ReadDirNames(Dir + "/b"); !slices.Equal(names, []string{"3001.json"}) {
		t.Errorf("after prune: %v", names)
	}
}

func TestRecordsIgnoreJunk(t *testing.T) {
	tr := tree(t)
	dir := filepath.Join(tr.Base(), Dir)
	for _, p := range []string{"x/1.json", "y/2.json", "z/notes.txt", ".h/3.json"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o777)
	}
	os.WriteFile(filepath.Join(dir, "x/1.json"), []byte(`{"host":"other","at":1}`), 0o666) // host mismatch
	os.WriteFile(filepath.Join(dir, "y/2.json"), []byte(`not json`), 0o666)
	os.WriteFile(filepath.Join(dir, "z/notes.txt"), []byte(`{"host":"z","at":1}`), 0o666)
	os.WriteFile(filepath.Join(dir, ".h/3.json"), []byte(`{"host":".h","at":1}`), 0o666)
	if got := Records(tr); len(got) != 0 {
		t.Errorf("Records = %v, want none", got)
	}
}

func TestReadSaysWhereAgentsLiveAndFlagsStale(t *testing.T) {
	tr := tree(t)
	now := time.UnixMilli(10_000_000)
	ms := now.UnixMilli()
	Write(tr, Record{Host: "laptop", At: ms - 1000, LastOK: ms - 2000, Agents: map[string]int64{"alice": 5, "shared": 7}})
	Write(tr, Record{Host: "build", At: ms - 3_600_000, LastOK: ms - 3_600_000, Agents: map[string]int64{"bob": 9, "shared": 6}})
	Write(tr, Record{Host: "fresh", At: ms - 60_000, Agents: map[string]int64{}})
	f := Read(tr, "laptop", now, 30*time.Minute)
	want := []struct {
		name         string
		local, stale bool
		synced       int64
	}{{"build", false, true, ms - 3_600_000}, {"fresh", false, false, ms - 60_000}, {"laptop", true, false, ms - 2000}}
	if len(f.Hosts) != len(want) {
		t.Fatalf("hosts = %+v", f.Hosts)
	}
	for i, w := range want {
		h := f.Hosts[i]
		if h.Name != w.name || h.Local != w.local || h.Stale != w.stale || h.SyncedAt == nil || *h.SyncedAt != w.synced {
			t.Errorf("host %d = %+v, want %+v", i, h, w)
		}
	}
	for id, host := range map[string]string{"alice": "laptop", "bob": "build", "shared": "build"} {
		if h, ok := f.AgentHost(id); !ok || h.Name != host {
			t.Errorf("AgentHost(%s) = %+v, %v, want %s", id, h, ok, host)
		}
	}
	if _, ok := f.AgentHost("nobody"); ok {
		t.Error("an unclaimed agent has a host")
	}
	// A laptop that never completed a transfer is stale, whatever its At.
	Write(tr, Record{Host: "laptop", At: ms, Agents: map[string]int64{}})
	if h := Read(tr, "laptop", now, 0).Hosts[2]; !h.Stale || h.SyncedAt != nil {
		t.Errorf("never-synced local host = %+v", h)
	}
	if got := (Host{Name: "b", SyncedAt: &ms, Stale: true}).Ago(now.Add(90 * time.Minute)); got != "b, synced 1h ago, STALE" {
		t.Errorf("Ago = %q", got)
	}
}
