//go:build linux

package fsutil

import "testing"

// TestFSFromMagic: statfs types are named as mount(8) shows them, and
// network and FUSE ones are known as shared.
func TestFSFromMagic(t *testing.T) {
	for _, c := range []struct {
		magic  uint32
		fuse   string
		want   FS
		String string
	}{
		{0xEF53, "", FS{Name: "ext4"}, "ext4"},
		{0x58465342, "", FS{Name: "xfs"}, "xfs"},
		{0x01021994, "", FS{Name: "tmpfs"}, "tmpfs"},
		{0x6969, "", FS{Name: "nfs", Network: true, Shared: true}, "nfs (network filesystem)"},
		{0x00C36400, "", FS{Name: "ceph", Network: true, Shared: true}, "ceph (network filesystem)"},
		{0xFF534D42, "", FS{Name: "cifs", Network: true, Shared: true}, "cifs (network filesystem)"},
		{0xFE534D42, "", FS{Name: "smb2", Network: true, Shared: true}, "smb2 (network filesystem)"},
		{0x0BD00BD0, "", FS{Name: "lustre", Network: true, Shared: true}, "lustre (network filesystem)"},
		{0x65735546, "glusterfs", FS{Name: "fuse.glusterfs", Network: true, Shared: true}, "fuse.glusterfs (network filesystem)"},
		{0x65735546, "ceph-fuse", FS{Name: "fuse.ceph-fuse", Network: true, Shared: true}, "fuse.ceph-fuse (network filesystem)"},
		{0x65735546, "sshfs", FS{Name: "fuse.sshfs", Network: true, Shared: true}, "fuse.sshfs (network filesystem)"},
		{0x65735546, "bindfs", FS{Name: "fuse.bindfs", Shared: true}, "fuse.bindfs (FUSE: other mounts may write it)"},
		{0x65735546, "", FS{Name: "fuse", Shared: true}, "fuse (FUSE: other mounts may write it)"},
		{0x1234, "", FS{Name: "0x1234"}, "0x1234"},
	} {
		asked := false
		got := fsFromMagic(c.magic, func() string { asked = true; return c.fuse })
		if got != c.want || got.String() != c.String {
			t.Errorf("%#x %q: %+v %q, want %+v %q", c.magic, c.fuse, got, got.String(), c.want, c.String)
		}
		if asked != (c.magic == 0x65735546) {
			t.Errorf("%#x: mount table read %v, want only for FUSE", c.magic, asked)
		}
	}
	if s := (FS{}).String(); s != "unknown" {
		t.Errorf("zero FS: %q", s)
	}
}

// TestProbeShared: the probe passes on a local disk and leaves nothing.
func TestProbeShared(t *testing.T) {
	dir := t.TempDir()
	if err := ProbeShared(dir); err != nil {
		t.Fatal(err)
	}
	if left := names(t, dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}
