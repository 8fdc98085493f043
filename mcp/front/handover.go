package front

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// handoverEnv names the descriptor, inherited across the exec, of the
// file that holds the handover. A file rather than an argument: the
// client's bytes in it may pass the size limit of one.
const handoverEnv = "_ST_MCP_HANDOVER_FD"

// execServer replaces this process with the SDK server (p.Server),
// handing it h (nil: a session from its start). It returns only on
// failure.
func (p Process) execServer(h *Handover) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding %s: %w", ServerBinary, err)
	}
	server := p.Server
	if server == "" {
		server = filepath.Join(filepath.Dir(self), ServerBinary)
	}
	if _, err := os.Stat(server); err != nil {
		return fmt.Errorf("the MCP server %s is not installed next to %s (install both: go install ./cmd/...)", ServerBinary, self)
	}
	env := p.ServerEnv
	if env == nil {
		env = os.Environ()
	}
	var f *os.File
	if h != nil {
		if f, err = handoverFile(h); err != nil {
			return err
		}
		env = append(slices.Clip(env), handoverEnv+"="+strconv.Itoa(int(f.Fd())))
	}
	err = syscall.Exec(server, append([]string{server}, p.ServerArgs...), env)
	runtime.KeepAlive(f) // a collected File closes its descriptor
	return fmt.Errorf("starting %s: %w", server, err)
}

// handoverFile writes h to an anonymous memory file (memfd), read from
// its start and left open across exec: it needs no writable folder and
// leaves nothing behind.
func handoverFile(h *Handover) (*os.File, error) {
	data, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	fd, err := unix.MemfdCreate("st-mcp-handover", 0) // no MFD_CLOEXEC: it must survive exec
	if err != nil {
		return nil, fmt.Errorf("handing the session to %s: %w", ServerBinary, err)
	}
	f := os.NewFile(uintptr(fd), "st-mcp-handover")
	if _, err := f.Write(data); err != nil {
		return nil, fmt.Errorf("handing the session to %s: %w", ServerBinary, err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	return f, nil
}

// TakeHandover returns the handover the front left to this process, nil
// when it was started without one; the variable naming it is removed so
// that nothing this process starts sees it.
func TakeHandover() (*Handover, error) {
	v, ok := os.LookupEnv(handoverEnv)
	if !ok {
		return nil, nil
	}
	_ = os.Unsetenv(handoverEnv)
	fd, err := strconv.Atoi(v)
	if err != nil {
		return nil, fmt.Errorf("bad %s %q", handoverEnv, v)
	}
	f := os.NewFile(uintptr(fd), "handover")
	var h Handover
	err = json.NewDecoder(f).Decode(&h)
	_ = f.Close() // read to the end; nothing is lost if closing fails
	if err != nil {
		return nil, fmt.Errorf("reading the front's handover: %w", err)
	}
	return &h, nil
}
