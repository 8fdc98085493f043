// Package mcp is `st mcp`: an MCP server over stdio that exposes
// the store to a coding agent as tools, and in channel mode pushes every
// new inbox message to the client as a notifications/claude/channel
// frame. Its tools call the same packages as the CLI verbs, so the two
// surfaces cannot drift apart.
//
// Lifecycle: Run serves until the client closes stdin or ctx ends (the
// caller cancels it on SIGINT/SIGTERM), then stops the timers, lets the
// running tool calls finish (for up to CallsGrace) and writes "offline"
// to the agent's status file, atomically and once.
//
// Its files import the MCP Go SDK under its own name, mcp: inside this
// package, mcp.X is always the SDK.
package mcp

import (
	"bytes"
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/mcp/front"
	"github.com/smalltalk-go/st/status"
)

// Name and Version are what the server reports as serverInfo, whatever
// name st was invoked as.
const (
	Name    = "st"
	Version = "0.9.1"
)

// Default intervals, st-compat.md §3.8 and §6.19.
const (
	StatusRefreshEvery = front.StatusRefreshEvery
	TidyCheckEvery     = front.TidyCheckEvery
	BackstopEvery      = front.ChannelBackstop
	StaleInboxAfter    = front.StaleInboxAfter
)

// Config is everything the server needs; the caller resolves it.
type Config struct {
	Root    string    // the store root, verbatim
	Agent   string    // the server's agent: valid, its folders created
	Channel bool      // channel mode (--channel)
	In      io.Reader // the client's requests (stdin)
	Out     io.Writer // the replies and notifications (stdout)
	Debug   io.Writer // channel debug lines; nil disables them
	Now     func() time.Time

	// MaxMessageBytes is the biggest message sent or read
	// (layout.DefaultMaxMessageBytes when 0).
	MaxMessageBytes int64

	// Throwaway marks an agent made up for this session (no ST_AGENT): its
	// folders are removed at the end unless it sent or got a message or
	// wrote anything there (throwaway.go).
	Throwaway bool

	// MaxFrame bounds one line from the client; zero means
	// front.MaxFrameBytes, or more when MaxMessageBytes needs it
	// (front.FrameLimit).
	MaxFrame int

	// Intervals; zero means the default. Tests shorten them.
	StatusEvery   time.Duration
	TidyEvery     time.Duration
	BackstopEvery time.Duration

	// CallsGrace bounds the wait for running tool calls at shutdown;
	// zero means CallsGrace. CallStarted, when set, runs as each tool
	// call starts: a test seam that holds a call mid-way.
	CallsGrace  time.Duration
	CallStarted func()

	// inferred, when set, has every tool's schemas inferred from its Go
	// types at registration and collected there, instead of read from
	// toolSchemas (how schemas_gen.go is written).
	inferred map[string][2]string

	// Handover is the session st-mcp's front opened and left to this
	// server; nil when it serves one from the start.
	Handover *front.Handover

	// noFront has the SDK answer the opening too, as it does in channel
	// mode: how the front's answers are made and checked (front_test.go).
	noFront bool
}

func (c *Config) defaults() {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = layout.DefaultMaxMessageBytes
	}
	if c.MaxFrame == 0 {
		c.MaxFrame = front.FrameLimit(c.MaxMessageBytes)
	}
	if c.StatusEvery == 0 {
		c.StatusEvery = StatusRefreshEvery
	}
	if c.TidyEvery == 0 {
		c.TidyEvery = TidyCheckEvery
	}
	if c.BackstopEvery == 0 {
		c.BackstopEvery = BackstopEvery
	}
	if c.CallsGrace == 0 {
		c.CallsGrace = CallsGrace
	}
}

// server is one running `st mcp`.
type server struct {
	cfg      Config
	mcp      *mcp.Server    // built at the first message the front leaves to it (front.go)
	client   mcp.Connection // replies and notifications go here; set before any is sent
	stdio    *lineTransport
	held     *heldResults  // set when the transport puts held results back
	ready    chan struct{} // closed once the client has finished its handshake
	initOnce sync.Once

	offlineOnce sync.Once
	sent        atomic.Bool // the agent sent a message (a reply may come back)

	rec   recorder // tool calls in the event log, for clients without hooks (activity.go)
	calls calls    // the tool calls being served, waited for at shutdown (calls.go)
}

// newServer returns the server with its SDK server built, as Run builds
// it when a session needs more than the front (front.go).
func newServer(cfg Config) *server {
	s := idleServer(cfg)
	s.build()
	return s
}

// idleServer returns the server without its SDK server.
func idleServer(cfg Config) *server {
	cfg.defaults()
	return &server{cfg: cfg, ready: make(chan struct{})}
}

// build makes the SDK server and registers the tools.
func (s *server) build() {
	// listChanged as the Node server says it: its SDK sets it on the
	// first registered tool.
	opts := &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	}
	if s.cfg.Channel {
		opts.Capabilities.Experimental = map[string]any{"claude/channel": map[string]any{}}
		opts.Instructions = Instructions
		opts.SupportedProtocolVersions = handshakeVersions()
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, opts)
	s.mcp.AddReceivingMiddleware(s.readyWhenInitialized)
	s.addTools()
}

// handshakeVersions are the SDK's protocol revisions before the modern
// one (front.ModernProtocol), newest first. A channel pushes
// notifications the client did not ask for, which only those revisions
// allow: Claude Code skips the channel of a server it reached over the
// modern protocol ("no unsolicited notification path"). Refusing the
// modern revision makes a client that probes with server/discover fall
// back to initialize, where the SDK answers the client's revision when
// it knows it, else the newest of these.
func handshakeVersions() []string {
	var vs []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < front.ModernProtocol {
			vs = append(vs, v)
		}
	}
	return vs
}

// readyWhenInitialized opens the gate for notifications once the client
// has completed its handshake: notifications/initialized in the
// initialize handshake, server/discover (or any other request) in the
// 2026-07-28 protocol, which has no initialized notification.
func (s *server) readyWhenInitialized(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "initialize" {
			s.initOnce.Do(func() { close(s.ready) })
		}
		return res, err
	}
}

// Run serves one client over cfg.In/cfg.Out until the client goes away
// or ctx ends, then writes "offline" for the agent. It returns nil on
// every orderly shutdown, and why the transport failed otherwise (a
// frame over MaxFrame, stdin or stdout failing). Outside channel mode the
// SDK server is built only when the client sends more than the opening
// (front.go).
func Run(ctx context.Context, cfg Config) error {
	return idleServer(cfg).run(ctx)
}

// run is Run on a server not yet built.
func (s *server) run(ctx context.Context) error {
	defer s.offline()
	if ctx.Err() != nil {
		return nil // a signal during start-up
	}
	in, h := s.cfg.In, s.cfg.Handover
	if h != nil {
		in = io.MultiReader(bytes.NewReader(h.Rest), in)
	}
	s.stdio = &lineTransport{in: in, out: s.cfg.Out, maxFrame: s.cfg.MaxFrame}
	s.held = &heldResults{}
	line := s.stdio.open()
	replay := &replayConn{Connection: stringifyConn{line, s.held}}
	conn := newDrainConn(replay)
	s.client = conn
	bg, stop := context.WithCancel(ctx)
	var refreshing sync.WaitGroup
	refreshing.Go(func() { s.refreshLoop(bg) })
	// These two only write to the client; one stuck on a stdout nobody
	// reads must not hold up the shutdown, so they are not waited for.
	go s.tidyLoop(bg)
	if s.cfg.Channel {
		go s.channelLoop(bg)
	}
	// A channel pushes frames from the start and answers with its own
	// capabilities and instructions: the SDK serves it from the first
	// message. A session st-mcp's front opened continues here with its
	// opening replayed. Otherwise the front answers the opening in this
	// process (front.go).
	var ss *mcp.ServerSession
	var err error
	switch {
	case h != nil:
		replay.replay = opening(h.Initialize, h.Initialized)
		if h.Ready {
			s.initOnce.Do(func() { close(s.ready) })
		}
		ss, err = s.serve(ctx, conn)
	case s.cfg.Channel || s.cfg.noFront:
		ss, err = s.serve(ctx, conn)
	default:
		if replay.replay = s.front(ctx, line); replay.replay != nil {
			ss, err = s.serve(ctx, conn)
		}
	}
	if err != nil {
		stop()
		refreshing.Wait()
		return err
	}
	if ss != nil {
		closed := make(chan struct{})
		go func() {
			_ = ss.Wait() // why it ended is s.stdio.Err(), returned below
			close(closed)
		}()
		select {
		case <-ctx.Done():
		case <-closed:
		}
	}
	// Stop the refresh and let the running tool calls finish their
	// writes before writing offline, so that none overwrites it or is cut
	// off by the exit, its temp file left behind.
	stop()
	refreshing.Wait()
	s.calls.close(s.cfg.CallsGrace)
	s.offline()
	if ss != nil {
		go func() { _ = ss.Close() }() // best effort: the process is about to exit
	} else {
		_ = conn.Close()
	}
	if ctx.Err() != nil {
		return nil
	}
	return s.stdio.Err()
}

// serve builds the SDK server and connects it to the client.
func (s *server) serve(ctx context.Context, conn *drainConn) (*mcp.ServerSession, error) {
	s.build()
	return s.mcp.Connect(ctx, connected{conn}, nil)
}

// offline writes "offline" once; an unused throwaway agent is removed
// instead.
func (s *server) offline() {
	s.offlineOnce.Do(func() {
		front.Offline(s.cfg.Root, s.cfg.Agent, s.cfg.Throwaway && !s.sent.Load(), s.recordEnd)
	})
}

// refreshLoop keeps the status file fresh (st-compat.md §3.8).
func (s *server) refreshLoop(ctx context.Context) {
	tick := time.NewTicker(s.cfg.StatusEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if ctx.Err() != nil {
			return
		}
		if t, err := fsutil.Open(s.cfg.Root); err == nil {
			_ = status.Refresh(t, s.cfg.Agent) // the next tick tries again
			t.Close()
		}
	}
}
