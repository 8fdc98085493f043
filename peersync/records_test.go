package peersync

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/fleet"
)

func localSpec(m *machine) string { return "local:" + m.root }

// changed returns when rel under h's root last changed, data or
// metadata (a rename in or out of place moves it).
func changed(t *testing.T, h *host, rel string) time.Time {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(h.root, rel))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := ctime(fi)
	if !ok {
		t.Skip("no change times here")
	}
	return c
}

// The hub holds a newer copy of bob's now.md than its record of bob's
// home speaks for (the files of a push landed, its record not yet): a
// pull leaves this host's copy alone, not even replacing it for a moment
// (a reader in between would have seen bob's state go forward and back),
// and takes it once the record arrives.
func TestPullTakesOwnedFilesOnlyWithTheirRecord(t *testing.T) {
	a, c, hub := newHost(t, "hosta", 0), newHost(t, "hostc", 0), newHost(t, "hub", 0)
	a.writeAs("bob", "busy", "bob v1\n")
	a.sync(true, localSpec, hub)
	c.sync(false, localSpec, hub)
	if _, now := c.read("bob"); now != "bob v1\n" {
		t.Fatalf("hostc holds bob's now.md %q after the first pull", now)
	}
	// Every kind of rewritten file: one replaced whole, one appended to.
	rels := map[string]string{
		"bob/context/now.md":  "bob v2 (ahead of its record)\n",
		"bob/status":          "dnd\n",
		"bob/events/s1.jsonl": "{\"now\":\"bob v1\\n\"}\n{\"now\":\"bob v2\"}\n",
	}
	before := map[string]time.Time{}
	for rel, ahead := range rels {
		before[rel] = changed(t, c, rel)
		if err := os.WriteFile(filepath.Join(hub.root, rel), []byte(ahead), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(10 * time.Millisecond) // a rename now would move the change time
	c.sync(false, localSpec, hub)
	if state, now := c.read("bob"); state != "busy" || now != "bob v1\n" {
		t.Errorf("hostc took bob's %q %q without hosta's newer record", state, now)
	}
	for rel := range rels {
		if after := changed(t, c, rel); !after.Equal(before[rel]) {
			t.Errorf("the pull replaced hostc's copy of %s (changed %v, before %v) and put it back", rel, after, before[rel])
		}
	}

	a.writeAs("bob", "dnd", "bob v3\n")
	a.sync(true, localSpec, hub)
	c.sync(false, localSpec, hub)
	if state, now := c.read("bob"); state != "dnd" || now != "bob v3\n" {
		t.Errorf("hostc holds bob %q %q, want hosta's newest with its record", state, now)
	}
}

// A push sends its host's record after the files it speaks for, so a
// peer never holds a record newer than the files beside it.
func TestPushSendsTheRecordAfterTheFiles(t *testing.T) {
	a, hub := newHost(t, "hosta", 0), newHost(t, "hub", 0)
	a.writeAs("bob", "busy", "bob v1\n")
	a.sync(true, localSpec, hub)
	a.writeAs("bob", "dnd", "bob v2\n")
	a.sync(true, localSpec, hub)
	record := changed(t, hub, fleet.RecordPath("hosta"))
	for _, rel := range []string{"bob/status", "bob/context/now.md", "bob/events/s1.jsonl"} {
		if c := changed(t, hub, rel); c.After(record) {
			t.Errorf("the hub's %s landed at %v, after hosta's record (%v)", rel, c, record)
		}
	}
}

// A round of sync --all reads the peer's records once: the pull decides
// with the ones its push read first (four rsync runs: the records, the
// push, the push's record, the pull), and still takes what the peer's
// newer records speak for.
func TestAllReadsThePeersRecordsOnce(t *testing.T) {
	hub, b := newHost(t, "hub", 0), newHost(t, "hostb", 0)
	b.writeAs("bob", "busy", "bob v1\n")
	b.sync(true, localSpec, hub)
	a := newHost(t, "hosta", 0)
	a.s.ConfigDir = writePeers(t, "hub: local:"+hub.root+"\n")
	a.writeAs("alice", "busy", "alice v1\n")
	var calls string
	a.s.PathEnv, calls = recordRsync(t)
	if err := a.s.All(""); err != nil {
		t.Fatalf("sync --all: %v\n%s", err, a.log)
	}
	if runs := runsOf(t, calls); len(runs) != 4 {
		t.Errorf("one round ran rsync %d times, want 4:\n%s", len(runs), strings.Join(runs, "\n"))
	}
	if state, now := a.read("bob"); state != "busy" || now != "bob v1\n" {
		t.Errorf("hosta holds bob %q %q after the round, want hostb's", state, now)
	}
	if _, now := hub.read("alice"); now != "alice v1\n" {
		t.Errorf("the hub holds alice's now.md %q after the round", now)
	}
}

// A transfer that yields (serve's rounds) runs rsync at nice 10 and asks
// the peer's rsync to run so too; any other runs at the caller's.
func TestYieldingTransferRunsNiced(t *testing.T) {
	hub := newHost(t, "hub", 0)
	for _, yield := range []bool{false, true} {
		a := newHost(t, "hosta", 0)
		a.writeAs("alice", "busy", "alice v1\n")
		var calls string
		a.s.PathEnv, calls = recordRsync(t)
		a.s.Yield = yield
		a.sync(true, localSpec, hub)
		lines := runsOf(t, calls)
		for _, l := range lines {
			niced := strings.HasPrefix(l, "10 ") && strings.Contains(l, "--rsync-path=nice -n 10 rsync")
			if niced != yield || !yield && !strings.HasPrefix(l, "0 ") {
				t.Errorf("yield %v: rsync ran as %q", yield, l)
			}
		}
		if len(lines) < 3 {
			t.Errorf("yield %v: %d rsync runs, want the push's three", yield, len(lines))
		}
	}
}

// recordRsync puts an rsync first on a Syncer's PATH (the folder it
// returns, then nice's) that notes each run in the file it returns, as
// a line of "<niceness> <arguments>", and runs the real rsync.
func recordRsync(t *testing.T) (pathEnv, calls string) {
	t.Helper()
	real, err := exec.LookPath("rsync")
	if err != nil {
		t.Skip("rsync not installed")
	}
	nice, err := exec.LookPath("nice")
	if err != nil {
		t.Skip("nice not installed")
	}
	bin := t.TempDir()
	calls = filepath.Join(bin, "calls")
	script := "#!/bin/sh\necho \"$(cut -d' ' -f19 /proc/$$/stat) $*\" >> " + calls + "\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "rsync"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin + string(os.PathListSeparator) + filepath.Dir(nice), calls
}

// runsOf returns the runs recordRsync noted.
func runsOf(t *testing.T, calls string) []string {
	t.Helper()
	data, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}
