package fsutil

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/glustertest"
)

// These tests run the primitives on a real distributed filesystem: one
// GlusterFS volume mounted several times, each mount standing in for a
// host. They skip where the volume cannot run (glustertest says why).

func sharedTrees(t *testing.T, mounts int) []*Tree {
	t.Helper()
	s := glustertest.ForTest(t, mounts)
	trees := make([]*Tree, mounts)
	for i, d := range s.Dirs {
		tr, err := Open(d)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tr.Close() })
		trees[i] = tr
	}
	return trees
}

// TestFSOfGlusterMount: a GlusterFS mount is named and known as shared.
func TestFSOfGlusterMount(t *testing.T) {
	s := glustertest.ForTest(t, 1)
	got, err := FSOf(s.Dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "fuse.glusterfs" || !got.Network || !got.Shared || !strings.Contains(got.Options, "allow_other") {
		t.Errorf("FSOf(gluster mount) = %+v, want fuse.glusterfs, network, shared, with its mount options", got)
	}
	local, err := FSOf(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if local.Shared {
		t.Errorf("FSOf(temp folder) = %+v: a local disk taken for a shared one", local)
	}
}

// TestLockAcrossMounts: the lock taken through one mount keeps every
// other mount out until it is released, and lives in the store.
func TestLockAcrossMounts(t *testing.T) {
	trees := sharedTrees(t, 3)
	unlock, err := trees[0].Lock(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trees[1:] {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		if u, err := tr.Lock(ctx, "k"); err == nil {
			u()
			t.Errorf("%s: lock granted while mount 0 holds it", tr.Base())
		}
		cancel()
	}
	if _, err := os.Stat(filepath.Join(trees[1].Base(), SharedLockDir, "k.lock")); err != nil {
		t.Errorf("lock file not in the store: %v", err)
	}
	unlock()
	u, err := trees[2].Lock(context.Background(), "k")
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	u()
}

// TestLockCountsAcrossMounts: goroutines on every mount increment a
// counter file under the lock; a lost update means two held it at once.
func TestLockCountsAcrossMounts(t *testing.T) {
	trees := sharedTrees(t, 4)
	if err := trees[0].WriteAtomic("n", []byte("0")); err != nil {
		t.Fatal(err)
	}
	const each = 15
	var wg sync.WaitGroup
	var failed atomic.Value
	for _, tr := range trees {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range each {
					unlock, err := tr.Lock(context.Background(), "counter")
					if err != nil {
						failed.Store(err)
						return
					}
					b, _, err := tr.ReadRegular("n")
					var n int
					if err == nil {
						_, err = fmt.Sscan(string(b), &n)
					}
					if err == nil {
						err = tr.WriteAtomic("n", []byte(fmt.Sprint(n+1)))
					}
					unlock()
					if err != nil {
						failed.Store(err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		t.Fatal(err)
	}
	b, _, err := trees[1].ReadRegular("n")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint(len(trees) * 2 * each); string(b) != want {
		t.Errorf("counter = %s, want %s: updates were lost, the lock did not exclude", b, want)
	}
}

// TestDeliverNoReplaceAcrossMounts: every mount delivers under the same
// name at once, round after round; exactly one gets it, and the file is
// that one's whole content.
func TestDeliverNoReplaceAcrossMounts(t *testing.T) {
	trees := sharedTrees(t, 4)
	if err := trees[0].MkdirAll("inbox"); err != nil {
		t.Fatal(err)
	}
	for round := range 30 {
		name := fmt.Sprintf("%d.md", round)
		var wg sync.WaitGroup
		won := make([]bool, len(trees))
		start := make(chan struct{})
		for i, tr := range trees {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				body := []byte(strings.Repeat(fmt.Sprint(i), 70000))
				_, err := tr.Deliver("inbox", body, func() string { return name })
				switch {
				case err == nil:
					won[i] = true
				case !errors.Is(err, ErrCollisions):
					t.Errorf("mount %d: %v", i, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		winners := 0
		for i, w := range won {
			if w {
				winners++
				b, _, err := trees[(i+1)%len(trees)].ReadRegular("inbox/" + name)
				if err != nil || string(b) != strings.Repeat(fmt.Sprint(i), 70000) {
					t.Errorf("round %d: the winner's file read through another mount: %d bytes, %v", round, len(b), err)
				}
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d deliveries under one name, want 1", round, winners)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(trees[0].Base(), "inbox", ".*"))
	if len(leftovers) > 0 {
		t.Errorf("temp files left: %v", leftovers)
	}
}

// TestProbeSharedOnGluster: the doctor's probe holds on GlusterFS and
// leaves nothing.
func TestProbeSharedOnGluster(t *testing.T) {
	s := glustertest.ForTest(t, 1)
	if err := ProbeShared(s.Dirs[0]); err != nil {
		t.Fatal(err)
	}
	if left := names(t, s.Dirs[0]); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestWriteAtomicReadAcrossMounts: one mount rewrites a file as fast as
// it can while another reads it; every read is one whole version, and
// none fails (a read that meets the stale handle of a file renamed over
// on another mount looks again).
func TestWriteAtomicReadAcrossMounts(t *testing.T) {
	trees := sharedTrees(t, 2)
	version := func(n int) []byte {
		if n%2 == 0 { // a status's size
			return []byte(fmt.Sprintf("%08d\n", n))
		}
		return []byte(fmt.Sprintf("%08d %s\n", n, strings.Repeat(fmt.Sprint(n%10), 20000+n%7*10000)))
	}
	whole := func(b []byte) bool {
		var n int
		_, err := fmt.Sscanf(string(b), "%08d", &n)
		return err == nil && string(b) == string(version(n))
	}
	if err := trees[0].WriteAtomic("status", version(0)); err != nil {
		t.Fatal(err)
	}
	// written[n] is when version n was in place; the reader's lag is how
	// long the version after the one it read had been.
	var mu sync.Mutex
	written := map[int]time.Time{}
	stop := rewriting(t, trees[0], "status", 0, version, func(n int) {
		mu.Lock()
		written[n] = time.Now()
		mu.Unlock()
	})
	var lag time.Duration
	reads, failed := 0, 0
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); reads++ {
		b, err := readOneWay(trees[1], "status", reads)
		switch {
		case err != nil:
			failed++
			if failed <= 5 {
				t.Errorf("read %d: %v", reads, err)
			}
		case !whole(b):
			t.Errorf("read %d: torn, %d bytes", reads, len(b))
		default:
			var n int
			_, _ = fmt.Sscanf(string(b), "%08d", &n)
			mu.Lock()
			if at, ok := written[n+1]; ok {
				lag = max(lag, time.Since(at))
			}
			mu.Unlock()
		}
	}
	t.Logf("%d rewrites through one mount, %d reads through the other, %d failed; the reads were at most %s behind",
		stop(), reads, failed, lag.Round(time.Millisecond))
	// GlusterFS's client caches (md-cache) and the kernel's FUSE entry and
	// attribute caches hold a name's old version for a second each by
	// default (docs/sharedfs.md); more than twice that is a reader stuck.
	if lag > 3*time.Second {
		t.Errorf("a reader on another mount lagged %s behind the rewrites", lag)
	}
}

// TestStatusReadsAcrossMountsNeverFail: one mount rewrites an agent's
// status in a store as fast as it can while another reads it as each st
// process does, through a tree of its own opened for the read, by each
// reader st has for a rewritten file in turn; no read fails. Such a
// reader can meet the stale handle of a file renamed over on the other
// mount again and again, for longer than a second's caches (at a
// replacedPatience of 1.5 s, one read in 5,000 to 8,000 failed, and
// `st status` answered "offline"), so the run is long enough to meet one.
func TestStatusReadsAcrossMountsNeverFail(t *testing.T) {
	writer, readerRoot := statusStore(t, glustertest.ForTest(t, 2))
	errs := 0
	w := readAcrossMounts(t, writer, readerRoot, 0, 1, 20*time.Second, func(read int64, way int, got []byte, err error) {
		switch {
		case err != nil:
			if errs++; errs <= 5 {
				t.Errorf("read %d (way %d): %v", read, way, err)
			}
		default:
			t.Errorf("read %d (way %d): %q, not a whole status", read, way, got)
		}
	})
	t.Logf("%d rewrites through one mount, %d reads through the other, %d failed", w.rewrites, w.reads, w.failed)
}

// TestReadAfterStaleHandleLooksAgain: a reader on one mount looks a file
// up, another mount replaces it, and the reader's next open meets the
// replaced file's stale handle; each of st's readers must then find the
// new file at once, not when the mount's entry cache expires a second
// later (retryReplaced's relook). Each round uses a name the reader has
// never read, so the old file's content is in no cache and the read
// reaches GlusterFS; each reader is tried with either mount writing.
func TestReadAfterStaleHandleLooksAgain(t *testing.T) {
	trees := sharedTrees(t, 2)
	const rounds = 2 * readWays
	var stale int
	slow := make([]int, readWays) // per reader: each is tried twice
	for round := range rounds {
		// Each reader is tried once either way round: mount 0 writes and
		// mount 1 reads, then the other way.
		writer, reader := trees[0], trees[1]
		if round >= readWays {
			writer, reader = reader, writer
		}
		rel := fmt.Sprintf("agent%d/status", round)
		if err := writer.MkdirAll(path.Dir(rel)); err != nil {
			t.Fatal(err)
		}
		if err := writer.WriteAtomic(rel, []byte("busy\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := reader.Lstat(rel); err != nil {
			t.Fatal(err)
		}
		if err := writer.WriteAtomic(rel, []byte("away\n")); err != nil {
			t.Fatal(err)
		}
		if !readMeetsStaleHandle(t, filepath.Join(reader.base, rel)) {
			continue
		}
		stale++
		began := time.Now()
		got, err := readOneWay(reader, rel, round)
		took := time.Since(began)
		if err != nil || string(got) != "away\n" {
			t.Errorf("round %d (way %d): %q, %v; want the new status", round, round%readWays, got, err)
		}
		// Waiting out the entry cache takes a second; looking again,
		// a few round trips. One slow read of a reader may be a loaded
		// machine; both of its reads slow is the wait.
		if took > 500*time.Millisecond {
			t.Logf("round %d (way %d): the read took %s after a stale handle", round, round%readWays, took.Round(time.Millisecond))
			if slow[round%readWays]++; slow[round%readWays] == 2 {
				t.Errorf("reader %d waited after a stale handle twice", round%readWays)
			}
		}
	}
	t.Logf("%d rounds, %d met a stale handle, slow reads by reader: %v", rounds, stale, slow)
	if stale < rounds/2 {
		t.Fatalf("only %d of %d rounds met a stale handle: this GlusterFS no longer shows what the test is for", stale, rounds)
	}
}

// readMeetsStaleHandle reports whether a plain open and read of name, as
// any program makes them, fail with ESTALE.
func readMeetsStaleHandle(t *testing.T, name string) bool {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		return errors.Is(err, syscall.ESTALE)
	}
	defer f.Close()
	_, err = f.Read(make([]byte, 64))
	return errors.Is(err, syscall.ESTALE)
}

// statuses are the versions statusStore's status is rewritten with.
var statuses = []string{"busy\n", "available\n", "away\n", "dnd\n"}

// statusStore makes a store on s holding alice/status, and returns a
// tree on it through s's first mount, to rewrite the status with, and
// the store's root through its second, for readers.
func statusStore(t testing.TB, s *glustertest.Store) (writer *Tree, readerRoot string) {
	t.Helper()
	root := filepath.Join(s.Dirs[0], "store")
	if err := os.MkdirAll(filepath.Join(root, "alice"), 0o777); err != nil {
		t.Fatal(err)
	}
	writer, err := OpenOrCreate(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { writer.Close() })
	if err := writer.WriteAtomic("alice/status", []byte(statuses[0])); err != nil {
		t.Fatal(err)
	}
	return writer, filepath.Join(s.Dirs[1], "store")
}

// readWindow is what readAcrossMounts counted.
type readWindow struct {
	rewrites, reads, slow, failed int64
	took                          time.Duration
}

// readAcrossMounts rewrites alice/status through writer, pausing pause
// after each, while readers goroutines read it under readerRoot for d,
// each opening a tree for each read and taking readOneWay's readers in
// turn. failed, when not nil, is told each read that failed or was not a
// whole status (got, err), by the reader's goroutine.
func readAcrossMounts(tb testing.TB, writer *Tree, readerRoot string, pause time.Duration, readers int, d time.Duration,
	failed func(read int64, way int, got []byte, err error)) readWindow {
	start := time.Now()
	stop := rewriting(tb, writer, "alice/status", pause, func(n int) []byte { return []byte(statuses[n%4]) }, nil)
	var reads, slow, failures atomic.Int64
	var wg sync.WaitGroup
	end := start.Add(d)
	for i := range readers {
		wg.Go(func() {
			for way := i; time.Now().Before(end); way++ {
				reader, err := Open(readerRoot)
				if err != nil {
					tb.Error(err)
					return
				}
				began := time.Now()
				got, err := readOneWay(reader, "alice/status", way)
				if time.Since(began) > 100*time.Millisecond {
					slow.Add(1)
				}
				reader.Close()
				n := reads.Add(1)
				if err != nil || !slices.Contains(statuses, string(got)) {
					failures.Add(1)
					if failed != nil {
						failed(n, way%readWays, got, err)
					}
				}
			}
		})
	}
	wg.Wait()
	rewrites := stop()
	return readWindow{rewrites: int64(rewrites), reads: reads.Load(), slow: slow.Load(), failed: failures.Load(), took: time.Since(start)}
}

// readOneWay reads rel through tree by the reader way picks, in turn
// every reader st has for a file another process rewrites: each goes
// through retryReplaced, and each must hold on its own. (OpenRegular
// is left out: it hands its caller an open file to stream, and st
// streams only messages, which are never rewritten.)
func readOneWay(tree *Tree, rel string, way int) ([]byte, error) {
	switch way % readWays {
	case 0:
		b, _, err := tree.ReadRegular(rel)
		return b, err
	case 1:
		b, _, err := tree.ReadHeadTail(rel, 1<<20)
		return b, err
	case 2:
		b, _, err := tree.ReadRange(rel, 0, 1<<20)
		return b, err
	case 3:
		b, _, err := tree.ReadTail(rel, 1<<20)
		return b, err
	}
	folder, err := tree.OpenFolder(path.Dir(rel))
	if err != nil {
		return nil, err
	}
	defer folder.Close()
	if way%readWays == 4 {
		return folder.ReadRegular(path.Base(rel))
	}
	b, _, err := folder.ReadPrefix(path.Base(rel), 1<<20)
	return b, err
}

// readWays is how many readers readOneWay knows.
const readWays = 6

// rewriting rewrites rel through tree with version(n), n = 1, 2, ...,
// pausing pause after each (0: as fast as it can), until the stop it
// returns is called; stop returns the number of versions written. wrote,
// when not nil, is told each one.
func rewriting(t testing.TB, tree *Tree, rel string, pause time.Duration, version func(n int) []byte, wrote func(n int)) (stop func() int) {
	quit, done := make(chan struct{}), make(chan int)
	go func() {
		n := 1
		for ; ; n++ {
			select {
			case <-quit:
				done <- n - 1 // the versions written
				return
			default:
			}
			if err := tree.WriteAtomic(rel, version(n)); err != nil {
				t.Error(err)
			}
			if wrote != nil {
				wrote(n)
			}
			time.Sleep(pause)
		}
	}()
	return func() int {
		close(quit)
		return <-done
	}
}

// TestSharedStaleTempsSweptSometimes: on a shared filesystem a delivery
// looks for stale temp files only now and then (sharedSweepEvery), yet a
// crash's leftover still goes within a few hundred deliveries.
func TestSharedStaleTempsSweptSometimes(t *testing.T) {
	trees := sharedTrees(t, 2)
	if err := trees[0].MkdirAll("in"); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(trees[0].Base(), "in", ".st-1714826789012-abcdef.md.99.tmp")
	if err := os.WriteFile(stale, []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-StaleTempAge - time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	for k := range 20 * sharedSweepEvery {
		if _, err := trees[1].Lstat("in/.st-1714826789012-abcdef.md.99.tmp"); os.IsNotExist(err) {
			t.Logf("swept by delivery %d", k)
			return
		}
		if _, err := trees[1].Deliver("in", []byte("m"), func() string { return fmt.Sprintf("%d.md", k) }); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("a stale temp file outlived %d deliveries", 20*sharedSweepEvery)
}

// TestSharedLockFreedByKill: a process holding the lock through one
// mount is killed (SIGKILL); the lock is free to another mount at once,
// as a local one would be.
func TestSharedLockFreedByKill(t *testing.T) {
	trees := sharedTrees(t, 2)
	flockBin, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("skipping: no flock(1)")
	}
	// Make the lock file the way Lock does, then hold it from a child.
	unlock, err := trees[0].Lock(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	// -o: the sleeping child does not inherit the lock; flock itself holds it.
	holder := exec.Command(flockBin, "-o", filepath.Join(trees[0].Base(), SharedLockDir, "k.lock"), "sleep", "5")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	// Wait until the child holds it.
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		u, err := trees[1].Lock(ctx, "k")
		cancel()
		if err != nil {
			break
		}
		u()
		time.Sleep(20 * time.Millisecond)
	}
	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = holder.Wait() // killed: its error is the signal
	start := time.Now()
	u, err := trees[1].Lock(context.Background(), "k")
	if err != nil {
		t.Fatalf("lock after the holder was killed: %v", err)
	}
	u()
	t.Logf("free to the other mount %s after the kill", time.Since(start).Round(time.Millisecond))
}
