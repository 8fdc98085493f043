package wiring

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/glustertest"
)

// TestCheckStoreOnGluster: a store on a GlusterFS mount is named as on a
// network filesystem, and the probe of its primitives passes; a store on
// the local disk gets no such line.
func TestCheckStoreOnGluster(t *testing.T) {
	s := glustertest.ForTest(t, 1)
	state := filepath.Join(t.TempDir(), "state")
	var fails []string
	var out strings.Builder
	checkStore(StoreCheck{Root: s.Dirs[0], StateDir: state}, func(f string, a ...any) { fails = append(fails, fmtLine(f, a...)) }, &out)
	if len(fails) != 0 {
		t.Errorf("FAIL lines: %q", fails)
	}
	want := "ok    store: " + s.Dirs[0] + " is on fuse.glusterfs (network filesystem): flock keeps a second open out"
	if !strings.Contains(out.String(), want) {
		t.Errorf("no line %q in:\n%s", want, out.String())
	}
	out.Reset()
	checkStore(StoreCheck{Root: t.TempDir(), StateDir: state}, func(f string, a ...any) { t.Errorf("local: "+f, a...) }, &out)
	if strings.Contains(out.String(), " is on ") {
		t.Errorf("a local store named as shared:\n%s", out.String())
	}
}
