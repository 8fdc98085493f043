package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/mcpserver"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/message"
)

// mcpCmd runs the MCP stdio server (internal/mcpserver).
type mcpCmd struct {
	Channel bool `help:"channel mode: push new inbox messages to Claude Code"`
}

func (c *mcpCmd) help(a *app) string {
	return named(`usage: {NAME} mcp [--channel]

  Run the MCP server over stdio. Reads $ST_AGENT (or
  legacy $ST_IDENTITY) from the environment. If none is
  set, falls back to a throwaway 'anon-<rand6>' identity
  so the server still starts under MCP hosts that spawn
  `+"`{NAME} mcp`"+` without identity env (Codex, etc.). The
  fallback is loud — one stderr line names the throwaway id
  and points at ST_AGENT for persistence. $ST_ROOT
  defaults to ~/.local/state/smalltalk, same as every other
  {NAME} verb. Intended to be invoked by an MCP
  host (Claude Code, Codex, Pi).

  --channel   Enable Claude Code channel mode: advertise the
              experimental.claude/channel capability, watch the
              inbox for new files, and register the msg_reply
              tool. Off by default; existing pull-only hosts are
              unaffected.
`, a.name)
}

// mcpTestConfig lets tests shorten the server's intervals; nil in st.
var mcpTestConfig func(*mcpserver.Config)

func (c *mcpCmd) Run(a *app) error {
	// Signals are caught from here on, so one arriving during start-up
	// still ends in an orderly shutdown that writes "offline".
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A client that closed our stdout must not kill us with SIGPIPE
	// before "offline" is written: the write fails, the session ends.
	signal.Ignore(syscall.SIGPIPE)
	root := a.root()
	id, err := mcpAgent(a, root)
	if err != nil {
		return err
	}
	cfg := mcpserver.Config{
		Root:    root,
		Agent:   id,
		Channel: c.Channel,
		In:      a.stdin,
		Out:     a.stdout,
		Now:     a.now,
	}
	if a.env.Get("ST_CHANNEL_DEBUG") == "1" {
		cfg.Debug = a.stderr
	}
	if mcpTestConfig != nil {
		mcpTestConfig(&cfg)
	}
	return mcpserver.Run(ctx, cfg)
}

// mcpAgent is the server's agent: the environment's (★11 its folders
// created), or a throwaway anon-<rand6> announced on stderr.
func mcpAgent(a *app, root string) (string, error) {
	id, err := a.env.AgentName()
	if errors.Is(err, sterr.ErrIdentityRequired) {
		id = "anon-" + message.NewName(a.now())[14:20] // the name's rand6
		if err := layout.EnsureAgent(root, id); err != nil {
			return "", err
		}
		fmt.Fprintf(a.stderr, "[smalltalk] no ST_AGENT set; using throwaway identity %s (set ST_AGENT to persist — sessions reusing the same identity share inbox/archive)\n", id)
		return id, nil
	}
	if err != nil {
		return "", err
	}
	if err := layout.CheckAgent(id); err != nil {
		return "", err
	}
	return id, layout.EnsureAgent(root, id)
}
