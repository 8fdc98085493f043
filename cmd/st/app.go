package main

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/alecthomas/kong"
	"golang.org/x/sys/unix"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/mcp/front"
)

// app is what every command runs with: the invoked name, the environment
// resolver, the standard streams and the clock. Commands get it through
// their Run method and never touch os.Args, os.Getenv or os.Stdout.
type app struct {
	name   string // the invoked name: "st", or "smalltalk" through a symlink
	argv0  string // argv[0] as given, for locating the running binary
	args   []string
	env    *layout.Env
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	now    func() time.Time

	// tuneMCP, when set, adjusts the MCP front `st mcp` runs (tests
	// shorten its timers).
	tuneMCP func(*front.Process)

	model *kong.Node // the whole grammar's model once built (fullModel)
}

func newApp(argv []string, stdin io.Reader, stdout, stderr io.Writer, lookup func(string) (string, bool)) *app {
	a := &app{
		argv0:  argv[0],
		args:   argv[1:],
		env:    layout.NewEnv(lookup, stderr),
		stdin:  stdin,
		stdout: stdout,
		stderr: stderr,
		now:    time.Now,
	}
	a.name = invokedName(a.env, argv[0])
	return a
}

// invokedName is $_ST_INVOKED_AS, else the base name of argv[0], else "st".
func invokedName(env *layout.Env, argv0 string) string {
	if n := env.Get("_ST_INVOKED_AS"); n != "" {
		return n
	}
	if n := filepath.Base(argv0); n != "" && n != "." && n != "/" {
		return n
	}
	return "st"
}

// root returns the store root, printing a legacy-variable notice once.
func (a *app) root() string { return a.env.Root() }

// resolve returns the agent a command acts on (see layout.Resolve).
func (a *app) resolve(explicit string, p layout.Policy) (string, error) {
	return layout.Resolve(a.root(), explicit, p, a.env)
}

// tree opens the store root for reading; nil when it does not exist.
func (a *app) tree() *fsutil.Tree {
	t, err := fsutil.Open(a.root())
	if err != nil {
		return nil
	}
	return t
}

// writableTree opens the store root, creating it if needed.
func (a *app) writableTree() (*fsutil.Tree, error) {
	return fsutil.OpenOrCreate(a.root())
}

// openAgent resolves the agent a command acts on (see resolve) and opens
// the store root for reading (see tree); the caller closes the tree.
func (a *app) openAgent(explicit string, p layout.Policy) (string, *fsutil.Tree, error) {
	id, err := a.resolve(explicit, p)
	if err != nil {
		return "", nil, err
	}
	return id, a.tree(), nil
}

// openAgentWritable resolves the agent a command acts on (see resolve)
// and opens the store root for writing (see writableTree); the caller
// closes the tree.
func (a *app) openAgentWritable(explicit string, p layout.Policy) (string, *fsutil.Tree, error) {
	id, err := a.resolve(explicit, p)
	if err != nil {
		return "", nil, err
	}
	t, err := a.writableTree()
	if err != nil {
		return "", nil, err
	}
	return id, t, nil
}

// isTerminal reports whether r is a terminal. Only a real TTY counts:
// /dev/null and other character devices are read like a pipe.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	_ = sc.Control(func(fd uintptr) { // a failed Control leaves tty false
		_, err := unix.IoctlGetTermios(int(fd), ioctlReadTermios)
		tty = err == nil
	})
	return tty
}
