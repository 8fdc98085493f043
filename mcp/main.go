package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// Process is what Main runs with: the invoked name, the environment and
// the standard streams of the st-mcp process.
type Process struct {
	Name    string // for "NAME: <error>" lines
	Channel bool
	Env     *layout.Env
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Now     func() time.Time
	Tune    func(*Config) // test seam: shortens the timers; nil in production
}

// Main runs the server until stdin closes, SIGINT or SIGTERM, and returns
// the exit code. `st mcp` has validated the arguments and execs st-mcp,
// so the SDK's weight is paid by the MCP server alone, not by every st
// command's start-up.
func Main(p Process) int {
	// Signals are caught from here on, so one arriving during start-up
	// still ends in an orderly shutdown that writes "offline".
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A client that closed our stdout must not kill us with SIGPIPE
	// before "offline" is written: the write fails, the session ends.
	signal.Ignore(syscall.SIGPIPE)
	root := p.Env.Root()
	id, throwaway, err := agent(p, root)
	if err == nil {
		cfg := Config{Root: root, Agent: id, Throwaway: throwaway, Channel: p.Channel, In: p.Stdin, Out: p.Stdout, Now: p.Now}
		cfg.MaxMessageBytes = p.Env.MaxMessageBytes()
		if p.Env.Get("ST_CHANNEL_DEBUG") == "1" {
			cfg.Debug = p.Stderr
		}
		if p.Tune != nil {
			p.Tune(&cfg)
		}
		err = Run(ctx, cfg)
	}
	if err != nil {
		fmt.Fprintf(p.Stderr, "%s: %s\n", p.Name, err)
		return 1
	}
	return 0
}

// agent is the server's agent: the environment's (★11 its folders
// created), or without one a throwaway anon-<rand6>, its folders created
// too so that every tool works, and removed at the end unless the
// session used them (server.offline). Nothing is printed for it: Claude
// Code logs an MCP server's stderr as an error.
func agent(p Process, root string) (id string, throwaway bool, err error) {
	id, err = p.Env.AgentName()
	if errors.Is(err, sterr.ErrIdentityRequired) {
		id = "anon-" + message.NewName(p.Now())[14:20] // the name's rand6
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
