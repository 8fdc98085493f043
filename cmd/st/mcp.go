package main

import (
	"syscall"

	"github.com/smalltalk-go/st/internal/sterr"
)

// mcpCmd runs the MCP stdio server (package mcp).
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
