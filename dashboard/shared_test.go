package dashboard

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/glustertest"
	"github.com/smalltalk-go/st/watch"
)

// TestSharedStoreBackstop: a dashboard serving a store through one
// GlusterFS mount, with its default backstop, shows a message delivered
// through another mount (which inotify does not report) within
// watch.SharedPoll and the filesystem's own delay.
func TestSharedStoreBackstop(t *testing.T) {
	g := glustertest.ForTest(t, 2)
	addFiles(t, g.Dirs[0], agentFolders)
	s := newServer(t, g.Dirs[1], func(c *Config) { c.Poll = 0 })
	if s.cfg.Poll != watch.SharedPoll {
		t.Errorf("backstop on a shared store: %s, want %s", s.cfg.Poll, watch.SharedPoll)
	}
	before := s.touch("bob")
	start := time.Now()
	addFiles(t, g.Dirs[0], map[string]string{filepath.Join("bob", "inbox", "1790000000000-abc123.md"): "---\nfrom: alice\n---\nx\n"})
	bound := watch.SharedPoll + 3*time.Second
	for s.touch("bob") == before {
		if time.Since(start) > bound {
			t.Fatalf("a delivery through another mount not noticed within %s", bound)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("noticed after %s", time.Since(start).Round(time.Millisecond))
}
