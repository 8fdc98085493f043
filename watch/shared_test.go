package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/glustertest"
)

// TestPollFor: a local folder keeps the backstop asked for; a folder on
// a GlusterFS mount gets SharedPoll at most.
func TestPollFor(t *testing.T) {
	if got := PollFor(t.TempDir(), time.Hour); got != time.Hour {
		t.Errorf("local folder: %s, want 1h", got)
	}
	s := glustertest.ForTest(t, 1)
	for _, c := range []struct{ poll, want time.Duration }{
		{time.Hour, SharedPoll}, {SharedPoll / 2, SharedPoll / 2}, {0, 0},
	} {
		if got := PollFor(s.Dirs[0], c.poll); got != c.want {
			t.Errorf("gluster mount, %s asked: %s, want %s", c.poll, got, c.want)
		}
	}
}

// TestWakesOnAnotherMountsWrite: a watcher on one mount, with an hour's
// backstop, wakes for a file created through another mount, which
// inotify does not report, within SharedPoll and the filesystem's own
// delay.
func TestWakesOnAnotherMountsWrite(t *testing.T) {
	s := glustertest.ForTest(t, 2)
	w := New(time.Hour)
	defer w.Close()
	w.Watch(s.Dirs[1])
	// Drain a tick or an event from the set-up.
	time.Sleep(SharedPoll + 100*time.Millisecond)
	select {
	case <-w.Wake():
	default:
	}
	start := time.Now()
	if err := os.WriteFile(filepath.Join(s.Dirs[0], "new"), []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	// The wake must come, and the file be there to see, within the bound.
	bound := SharedPoll + 2*time.Second
	deadline := time.After(bound)
	for {
		select {
		case <-w.Wake():
			if _, err := os.Stat(filepath.Join(s.Dirs[1], "new")); err == nil {
				t.Logf("seen through the other mount after %s", time.Since(start).Round(time.Millisecond))
				return
			}
		case <-deadline:
			t.Fatalf("another mount's write not seen within %s", bound)
		}
	}
}
