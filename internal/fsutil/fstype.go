package fsutil

// FS is what st needs to know of the filesystem a store is on.
type FS struct {
	// Name is the filesystem's type as mount(8) shows it: "ext4",
	// "nfs", "ceph", "fuse.glusterfs"; "" when it cannot be told.
	Name string
	// Network is true for a filesystem other hosts can mount and write
	// too (NFS, CephFS, SMB, GlusterFS over FUSE ...).
	Network bool
	// Shared is true where another mount may write without this host's
	// kernel seeing it: every network filesystem, and every FUSE one
	// (the daemon behind it may serve other writers). There, inotify
	// misses those writes, so watchers poll, and a lock must live on the
	// filesystem itself to exclude the other writers (Tree.Lock).
	Shared bool
	// Options are the mount's options and the filesystem's own, comma
	// separated as the mount table shows them (network and FUSE
	// filesystems only): where an NFS mount's local_lock= is read.
	Options string
	// Mount is where the filesystem is mounted (network and FUSE
	// filesystems only; "" when it cannot be told): the doctor reads a
	// GlusterFS client's translators there.
	Mount string
}

// String names the filesystem for a person: its type, and whether it is
// a network or FUSE one.
func (f FS) String() string {
	name := f.Name
	if name == "" {
		name = "unknown"
	}
	switch {
	case f.Network:
		return name + " (network filesystem)"
	case f.Shared:
		return name + " (FUSE: other mounts may write it)"
	}
	return name
}
