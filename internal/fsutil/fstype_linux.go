package fsutil

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// magicName names the statfs(2) f_type values of the filesystems st may
// meet (linux/magic.h and the filesystems' own sources), "" for others;
// network says which are network ones. FUSE is named from the mount
// table instead (fuseType), because its magic says nothing of the daemon
// behind it. Switches, not maps, so that nothing is built at start-up.
func magicName(magic uint32) (name string, network bool) {
	switch magic {
	case 0xEF53: // ext2, ext3 and ext4 share it
		return "ext4", false
	case 0x58465342:
		return "xfs", false
	case 0x9123683E:
		return "btrfs", false
	case 0x01021994:
		return "tmpfs", false
	case 0x2FC12FC1:
		return "zfs", false
	case 0x794C7630:
		return "overlay", false
	case 0xF2F52010:
		return "f2fs", false
	case 0x4D44:
		return "vfat", false
	case 0x2011BAB0:
		return "exfat", false
	case 0x5346544E:
		return "ntfs", false
	case 0x6969:
		return "nfs", true
	case 0x00C36400:
		return "ceph", true
	case 0xFF534D42:
		return "cifs", true
	case 0xFE534D42:
		return "smb2", true
	case 0x517B:
		return "smb", true
	case 0x01021997:
		return "9p", true
	case 0x5346414F, 0x6B414653: // AFS, kAFS
		return "afs", true
	case 0x0BD00BD0:
		return "lustre", true
	case 0x47504653:
		return "gpfs", true
	case 0x7461636F:
		return "ocfs2", true
	case 0x01161970:
		return "gfs2", true
	case 0x73757245:
		return "coda", true
	case 0x564C:
		return "ncp", true
	case 0x013111A8:
		return "ibrix", true
	case 0xAAD7AAEA:
		return "panfs", true
	case 0x19830326: // BeeGFS
		return "fhgfs", true
	case 0x65735546: // see fuseType
		return "fuse", false
	}
	return "", false
}

// fuseNetwork tells the FUSE daemons that serve a network filesystem.
func fuseNetwork(subtype string) bool {
	switch subtype {
	case "glusterfs", "ceph-fuse", "ceph", "sshfs", "s3fs", "rclone", "gcsfuse", "juicefs",
		"lizardfs", "moosefs", "mfs", "beegfs", "seaweedfs", "davfs", "smbnetfs", "cvmfs2":
		return true
	}
	return false
}

// FSOf tells what filesystem path is on.
func FSOf(path string) (FS, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return FS{}, err
	}
	// f_type is 32 bits wide whatever the word size (int32 on 32-bit
	// systems, where CIFS's magic reads negative).
	var typ, options, mount string
	looked := false
	look := func() {
		if !looked {
			typ, options, mount = mountOf(path)
			looked = true
		}
	}
	fs := fsFromMagic(uint32(st.Type), func() string {
		look()
		sub, _ := strings.CutPrefix(typ, "fuse.") // "fuseblk": no subtype
		if sub == typ {
			return ""
		}
		return sub
	})
	if fs.Shared {
		look()
		fs.Options, fs.Mount = options, mount
	}
	return fs, nil
}

// fsFromMagic names a statfs type; fuse is asked for a FUSE mount's
// subtype ("glusterfs") only when the magic is FUSE's.
func fsFromMagic(magic uint32, fuse func() string) FS {
	known, network := magicName(magic)
	if known == "" {
		return FS{Name: fmt.Sprintf("0x%x", magic)}
	}
	if known != "fuse" {
		return FS{Name: known, Network: network, Shared: network}
	}
	sub := fuse()
	name := "fuse"
	if sub != "" {
		name = "fuse." + sub
	}
	return FS{Name: name, Network: fuseNetwork(sub), Shared: true}
}

// mountOf returns the type ("fuse.glusterfs", "nfs4"), the options
// (the mount's, then the filesystem's) and the mount point of the mount
// path is on, matched by device number in the mount table; "" when it
// cannot be told.
func mountOf(path string) (typ, options, mount string) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "", "", ""
	}
	dev := fmt.Sprintf("%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev))
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", ""
	}
	defer closeQuietly(f)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		// "36 35 0:40 / /mnt rw,relatime shared:1 - fuse.glusterfs src rw,opts":
		// the device is the third field, the mount's options the sixth,
		// and after " - " come the type, the source and the filesystem's.
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[2] != dev {
			continue
		}
		_, after, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			return "", "", ""
		}
		rest := strings.Fields(after)
		if len(rest) < 1 {
			return "", "", ""
		}
		options = fields[5]
		if len(rest) >= 3 {
			options += "," + rest[2]
		}
		return rest[0], options, unescapeMount(fields[4])
	}
	return "", "", ""
}

// unescapeMount undoes the mount table's octal escapes (\040 for a
// space, \011, \012, \134) in a path.
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
