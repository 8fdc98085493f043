// Package sshtest runs a real OpenSSH server on 127.0.0.1 for the sync
// tests and the fleet simulation: a host key and a user key made for the
// run, an authorized_keys that allows only that key, and an ssh client
// config whose known_hosts pins the host key, so StrictHostKeyChecking
// stays on. Peers reach it as root@127.0.0.1:PATH (the current user),
// with RSYNC_RSH="ssh -F <config>" carrying the port and the keys, the
// way a user's ~/.ssh/config Host entry would.
//
// ssh reads ~/.ssh/config from the account's home in the password
// database, not from $HOME, so a test cannot give it one by setting HOME:
// -F is the only per-run way to hand it a config.
package sshtest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Server is one running sshd.
type Server struct {
	Dir    string // keys, configs and the server's log
	Port   int
	User   string
	Config string // the ssh client config (ssh -F)
	// SessionPath, when set, is the PATH of the commands the server runs
	// (as a hub's login environment would set it); else sshd's default.
	SessionPath string
	cmd         *exec.Cmd
	done        chan struct{}
	args        []string
}

// ErrUnavailable means this machine cannot run the test server (no sshd
// or ssh-keygen, or sshd would not start); tests skip on it.
var ErrUnavailable = errors.New("sshd unavailable")

// Start generates keys and configs in dir (which must exist and be empty
// of them) and starts sshd in the foreground on a free loopback port.
func Start(dir string) (*Server, error) { return StartWithPath(dir, "") }

// StartWithPath is Start for a server whose commands run with PATH set
// to sessionPath ("": sshd's default, which holds no st).
func StartWithPath(dir, sessionPath string) (*Server, error) {
	sshd, err := Available()
	if err != nil {
		return nil, err
	}
	u, err := user.Current()
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, User: u.Username, Config: filepath.Join(dir, "ssh_config"), SessionPath: sessionPath}
	for _, key := range []string{"host_key", "user_key"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "st-test", "-f", filepath.Join(dir, key)).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(filepath.Join(dir, "user_key.pub"))
	if err != nil {
		return nil, err
	}
	// Only this key, and only for running commands: no forwarding, no pty.
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), append([]byte("restrict "), pub...), 0o600); err != nil {
		return nil, err
	}
	if os.Getuid() == 0 {
		// sshd running as root wants its privilege separation folder.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		s.Port = port
		if err := s.writeConfigs(); err != nil {
			return nil, err
		}
		s.args = []string{sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config")}
		if lastErr = s.run(); lastErr == nil {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%w: %v", ErrUnavailable, lastErr)
}

// Available returns the sshd binary, or ErrUnavailable when it or the
// ssh client tools are missing.
func Available() (string, error) {
	for _, tool := range []string{"ssh", "ssh-keygen", "rsync"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Errorf("%w: no %s", ErrUnavailable, tool)
		}
	}
	if sshd, err := exec.LookPath("sshd"); err == nil {
		return sshd, nil
	}
	if _, err := os.Stat("/usr/sbin/sshd"); err != nil {
		return "", fmt.Errorf("%w: no sshd binary", ErrUnavailable)
	}
	return "/usr/sbin/sshd", nil
}

// writeConfigs writes sshd_config, known_hosts and the client config for
// s.Port.
func (s *Server) writeConfigs() error {
	hostPub, err := os.ReadFile(filepath.Join(s.Dir, "host_key.pub"))
	if err != nil {
		return err
	}
	sessionHome := filepath.Join(s.Dir, "session-home")
	if err := os.MkdirAll(sessionHome, 0o700); err != nil {
		return err
	}
	// StrictModes would refuse the key files: they live under the
	// world-writable temp folder. UsePAM is off so a non-root user can run
	// the server, and no login shell profile is needed. The sessions get an
	// empty HOME of their own: the remote command runs through the account's
	// shell, and bash started by sshd reads $HOME/.bashrc, whose start-up work
	// (a pyenv rehash under a lock on this image) made every connection wait
	// up to a minute when syncs ran side by side.
	setEnv := "HOME=" + sessionHome
	if s.SessionPath != "" {
		setEnv += " PATH=" + s.SessionPath
	}
	sshdConfig := fmt.Sprintf(`ListenAddress 127.0.0.1:%d
SetEnv %s
HostKey %s
AuthorizedKeysFile %s
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers %s
UsePAM no
StrictModes no
PidFile none
LogLevel VERBOSE
MaxStartups 200
MaxSessions 100
`, s.Port, setEnv, filepath.Join(s.Dir, "host_key"), filepath.Join(s.Dir, "authorized_keys"), s.User)
	known := fmt.Sprintf("[127.0.0.1]:%d %s", s.Port, hostPub)
	client := fmt.Sprintf(`Host 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
  ServerAliveInterval 5
  ServerAliveCountMax 2
`, s.Port, s.User, filepath.Join(s.Dir, "user_key"), filepath.Join(s.Dir, "known_hosts"))
	for name, text := range map[string]string{"sshd_config": sshdConfig, "known_hosts": known, "ssh_config": client} {
		if err := os.WriteFile(filepath.Join(s.Dir, name), []byte(text), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// run starts sshd and waits until it listens.
func (s *Server) run() error {
	log, err := os.OpenFile(filepath.Join(s.Dir, "sshd.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer func() { _ = log.Close() }() // sshd holds its own copy of the descriptor
	cmd := exec.Command(s.args[0], s.args[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	// Its own process group, so Stop takes the per-connection children too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }() // how sshd ended shows in its log
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return fmt.Errorf("sshd exited: %s", s.logTail())
		default:
		}
		if c, err := net.DialTimeout("tcp", s.Addr(), time.Second); err == nil {
			_ = c.Close() // a probe connection: it listens, that is all we asked
			s.cmd, s.done = cmd, done
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // gone already is as good
	<-done
	return fmt.Errorf("sshd did not listen: %s", s.logTail())
}

func (s *Server) logTail() string {
	data, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	if len(data) > 2000 {
		data = data[len(data)-2000:]
	}
	return strings.TrimSpace(string(data))
}

// Addr is host:port of the server.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// RSH is the RSYNC_RSH value that reaches the server.
func (s *Server) RSH() string { return "ssh -F " + s.Config }

// Spec is the peer spec of path on the server: user@127.0.0.1:path.
func (s *Server) Spec(path string) string { return s.User + "@127.0.0.1:" + path }

// Pid is the listening sshd's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Stop kills sshd and every connection it serves.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	// Connections run in their own sessions (sshd calls setsid), so
	// the group kill alone would leave them.
	s.KillSessions()
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL) // gone already is as good
	<-s.done
	s.cmd = nil
}

// Restart stops the server (dropping every connection) and starts it
// again on the same port with the same keys.
func (s *Server) Restart() error {
	s.Stop()
	var err error
	for range 50 {
		if err = s.run(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// KillSessions kills the per-connection sshd processes (and with them
// the remote rsync), leaving the listener up: a network drop mid-sync.
// It returns how many it killed.
func (s *Server) KillSessions() int {
	if s.cmd == nil {
		return 0
	}
	n := 0
	for _, pid := range Descendants(s.cmd.Process.Pid) {
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}

// Descendants lists the processes below pid (Linux /proc), children
// first.
func Descendants(pid int) []int {
	parent := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := ppid(p); ok {
			parent[pp] = append(parent[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range parent[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// Comm is a process's command name ("" when it is gone).
func Comm(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func ppid(pid int) (int, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	defer func() { _ = f.Close() }() // read only
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PPid:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return n, err == nil
		}
	}
	return 0, false
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }() // only asked for a free port
	return l.Addr().(*net.TCPAddr).Port, nil
}
