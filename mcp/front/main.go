package front

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
	"github.com/smalltalk-go/st/watch"
)

// Default intervals, st-compat.md §3.8 and §6.19.
const (
	StatusRefreshEvery = 5 * time.Minute
	TidyCheckEvery     = 20 * time.Minute
)

// Process is what st-mcp, `st mcp` and st-mcp-server run with: the
// invoked name, the environment and the standard streams.
type Process struct {
	Name    string // for "NAME: <error>" lines
	Channel bool
	Env     *layout.Env
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Now     func() time.Time
	// StatusEvery, TidyEvery and BackstopEvery (channel mode's look at
	// the inbox) are the front's timers; zero means the default. Tests
	// shorten them.
	StatusEvery, TidyEvery, BackstopEvery time.Duration

	// Server is the SDK server the front hands the session to: its path
	// ("" for ServerBinary next to this program), the arguments it gets
	// after its name and its environment (nil for this process's).
	Server     string
	ServerArgs []string
	ServerEnv  []string
}

// OSProcess is this process as st-mcp and st-mcp-server see it: the
// only argument is --channel, and the server gets the arguments as they
// are.
func OSProcess() Process {
	return Process{
		Name:    cmp.Or(os.Getenv("_ST_INVOKED_AS"), "st"),
		Channel: len(os.Args) > 1 && os.Args[1] == "--channel",
		Env:     layout.NewEnv(os.LookupEnv, os.Stderr),
		Stdin:   os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Now:        time.Now,
		ServerArgs: os.Args[1:],
	}
}

// ServerBinary is the SDK server the front hands sessions to, installed
// next to st-mcp.
const ServerBinary = "st-mcp-server"

// Main runs the front until stdin closes, SIGINT or SIGTERM, or until a
// message needs the SDK server, which then replaces this process (in
// channel mode also at the first message in the inbox, channel.go). It
// returns the exit code.
func Main(p Process) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	signal.Ignore(syscall.SIGPIPE)
	root := p.Env.Root()
	id, throwaway, err := Agent(p.Env, root, p.Now)
	if err != nil {
		return p.fail(err)
	}
	restore := func() {}
	if p.Channel {
		in, undo, ok := cuttableStdin(p.Stdin)
		if ok && hasNews(root, id) {
			undo()
			ok = false
		}
		if !ok {
			return p.fail(p.execServer(&Handover{Agent: id, Throwaway: throwaway}))
		}
		defer runtime.KeepAlive(in) // it shares stdin's descriptor, which its finalizer would close
		p.Stdin, restore = in, undo
	}
	h, err := p.serve(ctx, root, id)
	if h != nil {
		h.Agent, h.Throwaway = id, throwaway
		restore()
		return p.fail(p.execServer(h))
	}
	Offline(root, id, throwaway, nil)
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, syscall.EPIPE) {
		return 0
	}
	return p.fail(err)
}

// serve runs the front on the client while keeping the agent's status
// fresh and running the tidy check, as the SDK server does; the handover
// is nil when the session ended first.
func (p Process) serve(ctx context.Context, root, id string) (*Handover, error) {
	type result struct {
		h   *Handover
		err error
	}
	done := make(chan result, 1)
	out := &lockedWriter{w: p.Stdout}
	var ready atomic.Bool
	r := NewReader(p.Stdin, FrameLimit(p.Env.MaxMessageBytes()))
	go func() {
		h, err := Serve(r, out, func() { ready.Store(true) }, p.Channel)
		done <- result{h, err}
	}()
	refresh := time.NewTicker(cmp.Or(p.StatusEvery, StatusRefreshEvery))
	defer refresh.Stop()
	tidy := time.NewTicker(cmp.Or(p.TidyEvery, TidyCheckEvery))
	defer tidy.Stop()
	// handOver ends the read the front waits in: Serve returns the
	// session as it stands, for the server to push the news.
	handOver := func() (*Handover, error) {
		r.Cut()
		res := <-done
		return res.h, res.err
	}
	var news <-chan struct{} // nil outside channel mode: never ready
	var w *watch.Watcher
	inboxDir := filepath.Join(root, id, inbox.Inbox)
	if p.Channel {
		w = watch.New(cmp.Or(p.BackstopEvery, ChannelBackstop))
		defer func() { _ = w.Close() }() // the front is done with the inbox either way
		w.Watch(inboxDir)
		news = w.Wake()
		if hasNews(root, id) { // arrived before the watch began
			return handOver()
		}
	}
	fired := false
	for {
		select {
		case res := <-done:
			return res.h, res.err
		case <-news:
			if hasNews(root, id) {
				return handOver()
			}
			w.Watch(inboxDir) // again, in case the folder was made anew
		case <-ctx.Done():
			return nil, nil
		case <-refresh.C:
			if t, err := fsutil.Open(root); err == nil {
				_ = status.Refresh(t, id) // the next tick tries again
				t.Close()
			}
		case <-tidy.C:
			drift, body, ok := Drift(root, id, p.Now())
			if !ok {
				continue
			}
			if drift && !fired {
				if !ready.Load() {
					continue // the frame waits for the handshake: the next tick tries again
				}
				if line, err := Notification(ChannelMethod, TidyFrame(id, body)); err == nil {
					_, _ = out.Write(line) // a client gone ends the session through its stdin
				}
			}
			fired = drift
		}
	}
}

// lockedWriter writes each frame whole, from the front and its timers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// fail prints err as one line and returns the exit code for it.
func (p Process) fail(err error) int {
	fmt.Fprintf(p.Stderr, "%s: %s\n", p.Name, err)
	return 1
}

// Agent is the server's agent: the environment's (★11 its folders
// created), or without one a throwaway anon-<rand6>, its folders created
// too so that every tool works, and removed at the end unless the
// session used them (Offline). Nothing is printed for it: Claude Code
// logs an MCP server's stderr as an error.
func Agent(env *layout.Env, root string, now func() time.Time) (id string, throwaway bool, err error) {
	id, err = env.AgentName()
	if errors.Is(err, sterr.ErrIdentityRequired) {
		id = "anon-" + message.NewName(now())[14:20] // the name's rand6
		return id, true, layout.EnsureAgent(root, id)
	}
	if err != nil {
		return "", false, err
	}
	if err := layout.CheckAgent(id); err != nil {
		return "", false, err
	}
	return id, false, layout.EnsureAgent(root, id)
}

// Offline ends the agent's session: a removable agent (a throwaway one
// the session did not use) is removed when empty, any other gets
// "offline" as its status, after end (which may be nil) has closed what
// the session opened.
func Offline(root, id string, removable bool, end func(*fsutil.Tree)) {
	t, err := fsutil.Open(root)
	if err != nil {
		return
	}
	defer t.Close()
	if removable && removeUnused(t, id) {
		return
	}
	// Best effort at exit: where it cannot be written the status goes
	// stale and reads as unknown, which is the truth.
	_ = t.MkdirAll(id)
	if end != nil {
		end(t)
	}
	_ = status.SetAtExit(t, id, "offline")
}
