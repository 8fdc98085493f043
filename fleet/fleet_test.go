package fleet

import (
	"fmt"
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

// A host has one current record, replaced; the legacy one-file-per-sync
// records are read (the newest wins by At) and pruned once a current
// record is as new, and one that comes back from a peer loses again.
func TestOneRecordPerHostAndLegacyOnesGo(t *testing.T) {
	tr := tree(t)
	plant := func(host string, at int64) {
		dir := filepath.Join(tr.Base(), Dir, host)
		os.MkdirAll(dir, 0o777)
		data := fmt.Sprintf(`{"host":%q,"at":%d,"lastOK":%d,"agents":{"bob":1}}`, host, at, at)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint(at)+".json"), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, at := range []int64{1000, 3000, 2000} {
		plant("b", at)
		plant("old", at)
	}
	recs := Records(tr)
	if r := recs["b"]; r.At != 3000 || r.LastPush != 3000 || r.LastPull != 3000 {
		t.Errorf("legacy record read as %+v", r)
	}
	removed, err := Write(tr, Record{Host: "b", At: 2500, LastPush: 2400, Agents: map[string]int64{"bob": 2400}})
	if err != nil {
		t.Fatal(err)
	}
	// The legacy 3000 was newer: the current record is written at 3001,
	// and every legacy record of b goes; old keeps its newest only.
	want := []string{Dir + "/b/1000.json", Dir + "/b/2000.json", Dir + "/b/3000.json", Dir + "/old/1000.json", Dir + "/old/2000.json"}
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	if r := Records(tr)["b"]; r.At != 3001 || r.LastOK != 2400 {
		t.Errorf("current = %+v", r)
	}
	plant("b", 1500) // back from a peer
	if r := Records(tr)["b"]; r.At != 3001 {
		t.Errorf("a returning legacy record won: %+v", r)
	}
	if got := Prune(tr); !slices.Equal(got, []string{Dir + "/b/1500.json"}) {
		t.Errorf("prune removed %v", got)
	}
	for i := range 100 {
		Write(tr, Record{Host: "b", At: int64(4000 + i), Agents: map[string]int64{}})
	}
	names, _ := tr.ReadDirNames(Dir)
	slices.Sort(names)
	if !slices.Equal(names, []string{"b", "b.json", "old"}) {
		t.Errorf("after 100 writes the folder holds %v", names)
	}
}

// A forgotten host's records are ignored and pruned until it writes a
// newer one.
func TestForgetDropsAHostUntilItComesBack(t *testing.T) {
	tr := tree(t)
	Write(tr, Record{Host: "gone", At: 1000, Agents: map[string]int64{"bob": 900}})
	Write(tr, Record{Host: "here", At: 1000, Agents: map[string]int64{"alice": 900}})
	removed, err := Forget(tr, "gone", time.UnixMilli(2000))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{RecordPath("gone")}) {
		t.Errorf("removed %v", removed)
	}
	if _, ok := Records(tr)["gone"]; ok {
		t.Error("a forgotten host still has a record")
	}
	// A peer that still has the record brings it back: it stays ignored.
	os.WriteFile(filepath.Join(tr.Base(), RecordPath("gone")), []byte(`{"host":"gone","at":1000,"agents":{"bob":900}}`), 0o666)
	if _, ok := Records(tr)["gone"]; ok {
		t.Error("a forgotten host's record counted again")
	}
	Write(tr, Record{Host: "gone", At: 3000, Agents: map[string]int64{}})
	if _, ok := Records(tr)["gone"]; !ok {
		t.Error("a host that syncs after being forgotten is not back")
	}
	if _, err := Forget(tr, "../x", time.Now()); err == nil {
		t.Error("forgot a bad host name")
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
	Write(tr, Record{Host: "laptop", At: ms - 1000, LastPush: ms - 2000, LastPull: ms - 1500, Agents: map[string]int64{"alice": 5, "shared": 6}})
	Write(tr, Record{Host: "build", At: ms - 3_600_000, LastPush: ms - 3_600_000, Agents: map[string]int64{"bob": 9, "shared": 7}})
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

// The newest claim of an agent wins (its newest own write), and two
// hosts claiming one agent close together are reported, not hidden.
func TestNewestClaimWinsAndDoubleClaimsShow(t *testing.T) {
	tr := tree(t)
	hour := DoubleClaimWindow.Milliseconds()
	Write(tr, Record{Host: "a", At: 10 * hour, Agents: map[string]int64{"bob": 5 * hour, "moved": 1 * hour, "both": 9 * hour}})
	Write(tr, Record{Host: "b", At: 10 * hour, Agents: map[string]int64{"bob": 5*hour + 1, "moved": 8 * hour, "both": 9*hour - 1}})
	f := Read(tr, "a", time.UnixMilli(10*hour), 0)
	for id, want := range map[string]string{"bob": "b", "moved": "b", "both": "a"} {
		if h, ok := f.AgentHost(id); !ok || h.Name != want {
			t.Errorf("%s lives on %+v, want %s", id, h, want)
		}
	}
	for id, want := range map[string][]string{"bob": {"a"}, "moved": nil, "both": {"b"}} {
		if got := f.OtherClaims(id); !slices.Equal(got, want) {
			t.Errorf("OtherClaims(%s) = %v, want %v", id, got, want)
		}
	}
}

// A host whose pushes fail says so, and is not "synced 0s ago" because
// its pulls work.
func TestFailingPushesShow(t *testing.T) {
	tr := tree(t)
	now := time.UnixMilli(10_000_000)
	ms := now.UnixMilli()
	Write(tr, Record{Host: "a", At: ms, LastPush: ms - 600_000, PushFailing: ms - 120_000, LastPull: ms, Agents: map[string]int64{}})
	h := Read(tr, "a", now, 0).Hosts[0]
	if h.Failing != "push" || !h.Stale || *h.SyncedAt != ms-600_000 || *h.PulledAt != ms {
		t.Errorf("host = %+v", h)
	}
	if got := h.Ago(now); got != "a (here), synced 10m ago, PUSH FAILING for 2m, STALE" {
		t.Errorf("Ago = %q", got)
	}
	// Only pulls (a pull-only cron): up to date as of the last pull.
	Write(tr, Record{Host: "a", At: ms, LastPull: ms - 1000, Agents: map[string]int64{}})
	if h := Read(tr, "a", now, 0).Hosts[0]; h.Stale || *h.SyncedAt != ms-1000 {
		t.Errorf("pull-only host = %+v", h)
	}
	// Pushes never worked: never synced.
	Write(tr, Record{Host: "a", At: ms, LastPull: ms, PushFailing: ms - 5000, Agents: map[string]int64{}})
	if got := Read(tr, "a", now, 0).Hosts[0].Ago(now); got != "a (here), never synced, PUSH FAILING for 5s, STALE" {
		t.Errorf("Ago = %q", got)
	}
}

// A direction the host stopped trying (a spoke that pulled from a hub,
// now a mesh host running `st sync serve push`) stops counting once it
// has not been tried for the stale limit: its last failure no longer
// marks the host failing and stale for ever. Tried lately, it counts.
func TestRetiredDirectionStopsCounting(t *testing.T) {
	now := time.UnixMilli(100_000_000)
	ms := now.UnixMilli()
	stale := DefaultStaleAfter.Milliseconds()
	for _, c := range []struct {
		name      string
		pullTried int64
		want      string
	}{
		{"pull tried within the limit", ms - stale + 60_000, "a (here), never synced, PULL FAILING for 15m, STALE"},
		{"pull not tried for the limit", ms - stale - 60_000, "a (here), synced 2s ago"},
		{"a record that does not say", 0, "a (here), never synced, PULL FAILING for 15m, STALE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := tree(t)
			Write(tr, Record{Host: "a", At: ms, LastPush: ms - 2000, PushTried: ms - 2000,
				PullFailing: ms - stale, PullTried: c.pullTried, Agents: map[string]int64{}})
			if got := Read(tr, "a", now, 0).Hosts[0].Ago(now); got != c.want {
				t.Errorf("Ago = %q, want %q", got, c.want)
			}
		})
	}
}

// One failing peer among working ones shows by name (the direction's
// failure, reset by the working peer's success, did not keep it); a peer
// not tried for the stale limit (gone from peers.yaml) drops out; a
// local host pushing every few seconds and pulling less often shows
// both, not "synced" as of its older pull alone.
func TestFailingPeerShows(t *testing.T) {
	tr := tree(t)
	now := time.UnixMilli(10_000_000)
	ms := now.UnixMilli()
	Write(tr, Record{Host: "a", At: ms, LastPush: ms - 2000, LastPull: ms - 3000, Agents: map[string]int64{},
		Peers: map[string]PeerFailure{"push vm": {Since: ms - 300_000, Tried: ms - 2000}, "pull db": {Since: ms - 60_000, Tried: ms - 3000},
			"push gone": {Since: ms - 3_600_000, Tried: ms - 3_000_000}}})
	h := Read(tr, "a", now, 0).Hosts[0]
	if got := h.Ago(now); got != "a (here), synced 3s ago, PULL FROM db FAILING for 1m, PUSH TO vm FAILING for 5m, STALE" {
		t.Errorf("Ago = %q", got)
	}
	Write(tr, Record{Host: "a", At: ms, LastPush: ms - 2000, LastPull: ms - 300_000, Agents: map[string]int64{}})
	if got := Read(tr, "a", now, 0).Hosts[0].Ago(now); got != "a (here), pushed 2s ago, pulled 5m ago" {
		t.Errorf("Ago = %q", got)
	}
}
