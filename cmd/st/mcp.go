package main

import (
	"syscall"

	"github.com/smalltalk-go/st/internal/sterr"
)

// mcpCmd runs the MCP stdio server (package mcp).
type mcpCmd struct {
	Channel bool `help:"also push new inbox messages to Claude Code as they arrive"`
}

func (c *mcpCmd) Run(a *app) error {
	bin := a.companion("st-mcp")
	if bin == "" {
		return sterr.Msg("the MCP server st-mcp is not installed next to %s or on PATH (install both: go install ./cmd/...)", a.selfPath())
	}
	argv := []string{bin}
	if c.Channel {
		argv = append(argv, "--channel")
	}
	// Exec, not a child: the host's stdin, stdout and signals go straight
	// to the server, and its exit status is ours.
	return syscall.Exec(bin, argv, a.childEnv())
}

// Help is mcp's paragraph.
func (mcpCmd) Help() string {
	return `Started by an MCP client (Claude Code, Codex, Pi), not by hand. The agent
is $ST_AGENT; without it the server runs as a throwaway anon-<rand6> agent,
removed when the session ends unless it sent or got a message. It runs
{NAME}-mcp, installed next to {NAME}.`
}

func (mcpCmd) examples() []example {
	return []example{
		{"what a .mcp.json entry runs", "ST_AGENT=alice st mcp --channel"},
		{"register the server with Claude Code by hand", "claude mcp add st -e ST_AGENT=alice -- st mcp"},
	}
}
