package peersync

import (
	"os"
	"path/filepath"
	"strings"
)

// sshMux lets serve's transfers ride the ssh connection its arrival
// watch keeps to each peer (OpenSSH connection sharing) instead of
// opening one each: no new TCP connection, key exchange or login per
// push and pull, which is most of a small transfer's time. The watch's
// ssh is the master; a transfer's ssh uses its socket when it is there
// and connects on its own when it is not (the watch down, or not
// started yet). The sockets live in a folder of this serve's own, mode
// 0700, removed when serve ends.
type sshMux struct {
	dir string
}

// maxSocketPath keeps a socket's path within what a Unix socket address
// holds (108 bytes on Linux, 104 on BSDs): the folder, "/" and ssh's %C
// (40 hex digits).
const maxSocketPath = 100

// newSSHMux returns the sharing for the remote shell rsh, or nil where
// st leaves it alone: a remote shell that is not ssh, one whose options
// already choose the sharing, or no short private folder for sockets.
func newSSHMux(rsh string) *sshMux {
	words := shellWords(rsh)
	if len(words) == 0 || filepath.Base(words[0]) != "ssh" {
		return nil
	}
	set := sshOptionsSet(words[1:])
	if set["controlpath"] || set["controlmaster"] || set["controlpersist"] || strings.Contains(rsh, " -S") {
		return nil
	}
	dir, err := os.MkdirTemp("", "st-ssh-")
	if err != nil {
		return nil
	}
	if len(dir)+41 > maxSocketPath || strings.ContainsAny(dir, " \t\n'\"%") {
		_ = os.Remove(dir) // empty, ours: nothing to keep
		return nil
	}
	return &sshMux{dir: dir}
}

func (m *sshMux) path() string { return filepath.Join(m.dir, "%C") }

// master is what the watch's ssh adds to the remote shell: it becomes
// the master of its connection (auto: a stale socket a killed master
// left is replaced), which ends with the watch.
func (m *sshMux) master(rsh string) string {
	if m == nil {
		return rsh
	}
	return rsh + " -o ControlMaster=auto -o ControlPath=" + m.path() + " -o ControlPersist=no"
}

// client is what a transfer's ssh adds: use the master when there is one.
func (m *sshMux) client(rsh string) string {
	if m == nil {
		return rsh
	}
	return rsh + " -o ControlMaster=no -o ControlPath=" + m.path()
}

// close removes the sockets' folder.
func (m *sshMux) close() {
	if m != nil {
		_ = os.RemoveAll(m.dir) // a temp folder of sockets: nothing to keep, nothing to report
	}
}
