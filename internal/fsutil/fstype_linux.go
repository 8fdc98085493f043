package fsutil

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// fsMagic names the statfs(2) f_type values of the filesystems st may
// meet, and says which are network ones (linux/magic.h and the
// filesystems' own sources). FUSE is named from the mount table instead
// (fuseType), because its magic says nothing of the daemon behind it.
var fsMagic = map[uint32]struct {
	name    string
	network bool
}{
	0xEF53:     {"ext4", false}, // ext2, ext3 and ext4 share it
	0x58465342: {"xfs", false},
	0x9123683E: {"btrfs", false},
	0x01021994: {"tmpfs", false},
	0x2FC12FC1: {"zfs", false},
	0x794C7630: {"overlay", false},
	0xF2F52010: {"f2fs", false},
	0x4D44:     {"vfat", false},
	0x2011BAB0: {"exfat", false},
	0x5346544E: {"ntfs", false},
	0x6969:     {"nfs", true},
	0x00C36400: {"ceph", true},
	0xFF534D42: {"cifs", true},
	0xFE534D42: {"smb2", true},
	0x517B:     {"smb", true},
	0x01021997: {"9p", true},
	0x5346414F: {"afs", true},
	0x6B414653: {"afs", true}, // kAFS
	0x0BD00BD0: {"lustre", true},
	0x47504653: {"gpfs", true},
	0x7461636F: {"ocfs2", true},
	0x01161970: {"gfs2", true},
	0x73757245: {"coda", true},
	0x564C:     {"ncp", true},
	0x013111A8: {"ibrix", true},
	0xAAD7AAEA: {"panfs", true},
	0x19830326: {"fhgfs", true}, // BeeGFS
	0x65735546: {"fuse", false}, // see fuseType
}

// fuseNetwork are the FUSE daemons that serve a network filesystem.
var fuseNetwork = map[string]bool{
	"glusterfs": true, "ceph-fuse": true, "ceph": true, "sshfs": true,
	"s3fs": true, "rclone": true, "gcsfuse": true, "juicefs": true,
	"lizardfs": true, "moosefs": true, "mfs": true, "beegfs": true,
	"seaweedfs": true, "davfs": true, "smbnetfs": true, "cvmfs2": true,
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
	m, ok := fsMagic[magic]
	if !ok {
		return FS{Name: fmt.Sprintf("0x%x", magic)}
	}
	if m.name != "fuse" {
		return FS{Name: m.name, Network: m.network, Shared: m.network}
	}
	sub := fuse()
	name := "fuse"
	if sub != "" {
		name = "fuse." + sub
	}
	return FS{Name: name, Network: fuseNetwork[sub], Shared: true}
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
