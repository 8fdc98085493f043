package front

import (
	"io"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// In channel mode the server pushes every message in the agent's inbox
// to the client, the ones there at its start included. The front answers
// the opening while the inbox has nothing to push, and hands the session
// to the server at the first message the server must push or serve:
// most sessions start with an empty inbox and never need the SDK at
// their opening. The front pushes nothing itself, so the server, which
// pushes what it finds at its start, still pushes each message once.

// ChannelBackstop is how often the front looks at the inbox when no
// filesystem event woke it (the server's backstop, mcp.BackstopEvery).
const ChannelBackstop = 15 * time.Second

// hasNews reports whether agent id's inbox holds a message the server
// would push.
func hasNews(root, id string) bool {
	t, err := fsutil.Open(root)
	if err != nil {
		return false
	}
	defer t.Close()
	names, err := t.ReadDirNames(id + "/" + inbox.Inbox)
	return err == nil && len(inbox.Pushable(t, id, names)) > 0
}

// cuttableStdin is the client's input made so that a read waiting on it
// can be ended (Reader.Cut), for the front to hand the session over while
// the client is silent: a regular file as it is (a read never waits),
// anything else made non-blocking for the runtime's poller, whose reads
// take deadlines. restore puts the descriptor back as it was, for the
// server. ok is false when in cannot be made so: the front then leaves a
// channel session to the server from its start.
func cuttableStdin(in io.Reader) (cuttable io.Reader, restore func(), ok bool) {
	f, isFile := in.(*os.File)
	if !isFile {
		return nil, nil, false
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		return f, func() {}, true
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	var fd uintptr
	if rc.Control(func(d uintptr) { fd = d }) != nil {
		return nil, nil, false
	}
	flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
	if err != nil {
		return nil, nil, false
	}
	blocking := flags&unix.O_NONBLOCK == 0
	if blocking && syscall.SetNonblock(int(fd), true) != nil {
		return nil, nil, false
	}
	restore = func() {
		if blocking {
			_ = syscall.SetNonblock(int(fd), false) // the server copes either way
		}
	}
	polled := os.NewFile(fd, f.Name())
	if polled.SetReadDeadline(time.Time{}) != nil { // not pollable: a read would wait past Cut
		restore()
		return nil, nil, false
	}
	return polled, restore, true
}
