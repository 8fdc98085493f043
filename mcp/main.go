package mcp

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/smalltalk-go/st/mcp/front"
)

// Main runs st-mcp-server until stdin closes, SIGINT or SIGTERM, and
// returns the exit code. st-mcp, the front clients start, execs it at
// the first message it cannot answer, handing it the session it opened
// (front.TakeHandover), or in channel mode also at the first message in
// the agent's inbox. tune, a test seam,
// may shorten the timers; nil in production.
func Main(p front.Process, tune func(*Config)) int {
	// Signals are caught from here on, so one arriving during start-up
	// still ends in an orderly shutdown that writes "offline".
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A client that closed our stdout must not kill us with SIGPIPE
	// before "offline" is written: the write fails, the session ends.
	signal.Ignore(syscall.SIGPIPE)
	root := p.Env.Root()
	h, err := front.TakeHandover()
	var id string
	var throwaway bool
	switch {
	case err != nil:
	case h != nil:
		id, throwaway = h.Agent, h.Throwaway
	default:
		id, throwaway, err = front.Agent(p.Env, root, p.Now)
	}
	if err == nil {
		cfg := Config{Root: root, Agent: id, Throwaway: throwaway, Channel: p.Channel, In: p.Stdin, Out: p.Stdout, Now: p.Now, Handover: h}
		cfg.MaxMessageBytes = p.Env.MaxMessageBytes()
		if p.Env.Get("ST_CHANNEL_DEBUG") == "1" {
			cfg.Debug = p.Stderr
		}
		if tune != nil {
			tune(&cfg)
		}
		err = Run(ctx, cfg)
	}
	if err != nil {
		fmt.Fprintf(p.Stderr, "%s: %s\n", p.Name, err)
		return 1
	}
	return 0
}
