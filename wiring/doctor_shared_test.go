package wiring

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/fsutil"
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
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "performance.quick-read off, as st needs") {
		t.Errorf("no line %q saying quick-read is off in:\n%s", want, out.String())
	}
	// The test volume keeps GlusterFS's default performance.stat-prefetch
	// on, which the line advises against for a busy fleet.
	if !strings.Contains(out.String(), "gluster volume set <volume> performance.stat-prefetch off") {
		t.Errorf("no advice on performance.stat-prefetch in:\n%s", out.String())
	}
	out.Reset()
	checkStore(StoreCheck{Root: t.TempDir(), StateDir: state}, func(f string, a ...any) { t.Errorf("local: "+f, a...) }, &out)
	if strings.Contains(out.String(), " is on ") {
		t.Errorf("a local store named as shared:\n%s", out.String())
	}
}

// TestCheckStoreOnGlusterQuickReadOn: on a volume with
// performance.quick-read on, which a client sees in its translators, the
// doctor fails and names the option (it said ok, as with it off).
func TestCheckStoreOnGlusterQuickReadOn(t *testing.T) {
	s := glustertest.ForTestQuickReadOn(t, 1)
	var fails []string
	var out strings.Builder
	checkStore(StoreCheck{Root: s.Dirs[0], StateDir: filepath.Join(t.TempDir(), "state")}, func(f string, a ...any) { fails = append(fails, fmtLine(f, a...)) }, &out)
	if len(fails) != 1 || !strings.Contains(fails[0], "performance.quick-read on") ||
		!strings.Contains(fails[0], "gluster volume set <volume> performance.quick-read off") {
		t.Errorf("FAIL lines %q, want one naming performance.quick-read; output:\n%s", fails, out.String())
	}
}

// TestSharedFSProblem: an NFS mount whose flock stays local to the
// host is a problem; other mounts and options are not.
func TestSharedFSProblem(t *testing.T) {
	for _, c := range []struct {
		fs   fsutil.FS
		want string // "" for none, else a part of the problem
	}{
		{fsutil.FS{Name: "nfs", Options: "rw,relatime,vers=4.2,local_lock=none"}, ""},
		{fsutil.FS{Name: "nfs", Options: "rw,vers=4.2,local_lock=flock"}, "local_lock=flock"},
		{fsutil.FS{Name: "nfs", Options: "rw,vers=3,local_lock=all"}, "local_lock=all"},
		{fsutil.FS{Name: "nfs4", Options: "rw,nolock"}, "nolock"},
		{fsutil.FS{Name: "ceph", Options: "rw,local_lock=flock"}, ""},
		{fsutil.FS{Name: "fuse.glusterfs", Options: "rw,allow_other"}, ""},
	} {
		got := sharedFSProblem(c.fs)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s %q: %q, want one naming %q", c.fs.Name, c.fs.Options, got, c.want)
		}
	}
}

// TestSharedFSNote: what the doctor adds for a GlusterFS client, by the
// translators its meta folder lists: that quick-read is off, or that it
// cannot tell, and advice when md-cache (performance.stat-prefetch) is on.
func TestSharedFSNote(t *testing.T) {
	for _, c := range []struct {
		name        string
		translators []string // nil: no meta folder
		want, not   []string
	}{
		{"no meta folder", nil,
			[]string{"performance.quick-read off, which this client does not show"}, []string{"stat-prefetch"}},
		{"md-cache on", []string{"vol-client-0", "vol-md-cache", "vol-write-behind"},
			[]string{"performance.quick-read off, as st needs", "performance.stat-prefetch on (this client loads vol-md-cache)",
				"gluster volume set <volume> performance.stat-prefetch off"}, nil},
		{"md-cache off", []string{"vol-client-0", "vol-write-behind"},
			[]string{"performance.quick-read off, as st needs"}, []string{"stat-prefetch"}},
	} {
		mount := t.TempDir()
		if c.translators != nil {
			active := filepath.Join(mount, ".meta", "graphs", "active")
			for _, xl := range c.translators {
				if err := os.MkdirAll(filepath.Join(active, xl), 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}
		n := sharedFSNote(fsutil.FS{Name: "fuse.glusterfs", Mount: mount})
		for _, w := range c.want {
			if !strings.Contains(n, w) {
				t.Errorf("%s: note %q lacks %q", c.name, n, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(n, w) {
				t.Errorf("%s: note %q names %q", c.name, n, w)
			}
		}
	}
	if n := sharedFSNote(fsutil.FS{Name: "nfs"}); n != "" {
		t.Errorf("NFS note: %q", n)
	}
}
