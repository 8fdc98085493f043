package main

import (
	"path/filepath"

	"github.com/smalltalk-go/st/mcp/front"
	"github.com/smalltalk-go/st/wiring"
)

// mcpCmd runs the MCP stdio server (package mcp).
type mcpCmd struct {
	Channel bool `help:"also push new inbox messages to Claude Code as they arrive"`
}

func (c *mcpCmd) Run(a *app) error {
	p := front.Process{
		Name: a.name, Channel: c.Channel, Env: a.env,
		Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr, Now: a.now,
		Server: a.companion(front.ServerBinary), ServerEnv: a.childEnv(),
	}
	if c.Channel {
		p.ServerArgs = []string{"--channel"}
	}
	if a.tuneMCP != nil {
		a.tuneMCP(&p)
	}
	// The front runs here rather than in st-mcp, which would be a second
	// program to start before the first answer; at the first request it
	// cannot answer it execs the SDK server, as st-mcp does.
	if code := front.Main(p); code != 0 {
		return exitCode(code) // the front said why
	}
	return nil
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
removed when the session ends unless it sent or got a message. {NAME} answers
the session's opening itself and hands the session to {NAME}-mcp-server,
installed next to {NAME}, at the first request that needs it.`
}

func (mcpCmd) examples() []example {
	return []example{
		{"what a .mcp.json entry runs", "ST_AGENT=alice st mcp --channel"},
		{"register the server with Claude Code by hand", "claude mcp add st -e ST_AGENT=alice -- st mcp"},
	}
}
