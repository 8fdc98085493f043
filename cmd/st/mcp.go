package main

import (
	"path/filepath"
	"syscall"

	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/wiring"
)

// mcpCmd runs the MCP stdio server (package mcp).
type mcpCmd struct {
	Channel bool `help:"also push new inbox messages to Claude Code as they arrive"`
}

func (c *mcpCmd) Run(a *app) error {
	bin := a.companion(wiring.MCPBinary)
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

// mcpServer is what the configurations st writes run for its MCP server:
// st-mcp when it is installed next to this st, else this st's mcp verb.
func (a *app) mcpServer(channel bool) wiring.MCPServer {
	self := a.selfPath()
	if bin := filepath.Join(filepath.Dir(self), wiring.MCPBinary); isExecutable(bin) {
		return wiring.DirectMCPServer(bin, channel)
	}
	return wiring.STMCPServer(self, channel)
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
