package peersync

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/fleet"
)

// filesIn counts the regular files under dir.
func filesIn(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

var numberOfFiles = regexp.MustCompile(`(?m)^Number of files: ([\d,]+)`)

// A day of a spoke's cycles against a hub that only serves: the hub
// starts with half a day of the spoke's records in the old
// one-file-per-sync format (as older versions left them, 8,640 at one
// sync every 5 s) and archived messages' inbox twins; then the spoke
// runs 100 push-and-pull cycles (ST_HUB_CYCLES) on a clock that moves 5 s each.
// Without anyone running st on the hub, it ends holding one record per
// host and no twins, and a pull lists as many files in the last cycle
// as in the first ones: the cost of a cycle does not grow with age.
func TestHubStaysSmallBySpokesAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("100 sync cycles over 8,640 files: skipped in -short mode")
	}
	spoke, hub := newMachine(t, t.TempDir()), newMachine(t, t.TempDir())
	spoke.s.Host = "spoke"
	// rsync with --stats, so the test can read a pull's file count.
	bin := t.TempDir()
	real, err := lookPath("rsync", os.Getenv("PATH"))
	if err != nil {
		t.Skip("rsync not installed")
	}
	os.WriteFile(filepath.Join(bin, "rsync"), []byte("#!/bin/sh\nexec "+real+" --stats \"$@\"\n"), 0o755)
	spoke.s.PathEnv = bin
	var out bytes.Buffer
	spoke.s.Stdout = &out

	clock := time.UnixMilli(1_800_000_000_000)
	spoke.s.Now = func() time.Time { return clock }
	legacy := filepath.Join(hub.root, fleet.Dir, "spoke")
	os.MkdirAll(legacy, 0o777)
	const planted = 8640
	for i := range planted {
		at := clock.Add(-time.Duration(planted-i) * 5 * time.Second).UnixMilli()
		rec := fmt.Sprintf(`{"host":"spoke","at":%d,"lastOK":%d,"agents":{"alice":1}}`, at, at)
		if err := os.WriteFile(filepath.Join(legacy, strconv.FormatInt(at, 10)+".json"), []byte(rec), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	// Messages alice archived on the spoke long ago, still in the hub's
	// inbox (and archive: a sweep there would have removed them).
	var twins []string
	for range 20 {
		name := spoke.send("bob", "alice", "archived long ago\n")
		twins = append(twins, name)
	}
	if err := spoke.s.Push("local:" + hub.root); err != nil {
		t.Fatal(err)
	}
	for _, name := range twins {
		spoke.archive("alice", name)
	}
	if err := spoke.s.Push("local:" + hub.root); err != nil {
		t.Fatal(err)
	}
	if n := filesIn(filepath.Join(hub.root, "alice/inbox")); n != len(twins) {
		t.Fatalf("the hub holds %d inbox twins, want %d", n, len(twins))
	}

	cfg := writePeers(t, "hub: local:"+hub.root+"\n")
	spoke.s.ConfigDir = cfg
	cycles := 100
	if n, err := strconv.Atoi(os.Getenv("ST_HUB_CYCLES")); err == nil && n > 2 {
		cycles = n
	}
	var listed []int
	for c := range cycles {
		clock = clock.Add(5 * time.Second)
		if c%50 == 0 {
			spoke.send("bob", "alice", fmt.Sprintf("cycle %d\n", c))
			spoke.wrote("alice")
		}
		out.Reset()
		if err := spoke.s.Pull("local:" + hub.root); err != nil {
			t.Fatalf("cycle %d pull: %v\n%s", c, err, spoke.log)
		}
		m := numberOfFiles.FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no --stats in the pull's output:\n%s", out.String())
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		listed = append(listed, n)
		if err := spoke.s.Push("local:" + hub.root); err != nil {
			t.Fatalf("cycle %d push: %v\n%s", c, err, spoke.log)
		}
	}
	records := filesIn(filepath.Join(hub.root, fleet.Dir))
	twinsLeft := filesIn(filepath.Join(hub.root, "alice/inbox")) - filesIn(filepath.Join(spoke.root, "alice/inbox"))
	t.Logf("result: %d planted records and %d twins on the hub; after %d cycles it holds %d host records and %d twins; a pull listed %d files in cycle 1, %d in cycle 2, %d in cycle %d",
		planted, len(twins), cycles, records, twinsLeft, listed[0], listed[1], listed[cycles-1], cycles)
	if records != 1 {
		t.Errorf("the hub holds %d host records, want 1", records)
	}
	if twinsLeft != 0 {
		t.Errorf("the hub still holds %d inbox twins", twinsLeft)
	}
	// The spoke's new messages add one file every 50 cycles; nothing
	// else may grow.
	if grown := listed[cycles-1] - listed[1]; grown > cycles/50 {
		t.Errorf("a pull listed %d files in cycle 2 and %d in cycle %d", listed[1], listed[cycles-1], cycles)
	}
}
