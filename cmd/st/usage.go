package main

import "strings"

// named replaces the {NAME} placeholders of a help text with the invoked name.
func named(text, name string) string { return strings.ReplaceAll(text, "{NAME}", name) }

func topUsage(name string) string { return named(topUsageText, name) }

// topUsageText is upstream's top-level usage plus the hook lines (ours).
const topUsageText = `usage: {NAME} <subcommand> [args...]
       {NAME} --help | --version

Messages:
  message <verb> [args...]   (alias: msg) — send/reply/read/archive on the bus
    send | reply | ls | read | archive | thread

Live:
  watch [<identity>] [--all] [--with-subject] [--since UNIX_MS | --since-now]
                     [--interval MS] [--once]
                     follow inbox arrivals; --all is cross-tree
  status [<identity>] [--set <state>]            get or set an agent status
  agents [--status STATE] [--json [--enrich]]    who's around (alias: members)
  overview [--recent N] [--json]                 at-a-glance dashboard

Resources:  publish + list the URLs an agent cares about
  resource add <url> [--title T] [--tag T,T] [--body-stdin]
  resource ls [<identity>] [--json]
  resource read [<identity>] <filename> [--json]
  resource rm <filename>

Context (brief-024, lossless-restart):
  context read [<identity>] [--decisions | --full]
                                   print now.md / decisions/ log / both
  context write [<identity>]       replace now.md from stdin
  context append [<identity>] --decision "<text>" --why "<text>"
                                   append one entry to decisions/ as a new
                                   file named <unix-ms>-<rand6>.md

Sync:
  sync push <peer>
  sync push --all
  sync pull <peer>
  sync pull --all                  recommended cron default (pull-only)
  sync --all                       push + pull against every peer
  sync sweep                       enforce the LAYOUT tombstone invariant
  gc serve [--interval S] [--once] long-running tombstone GC: sweep the bus
                                   root every S seconds (default 2) so a
                                   resurrected inbox copy is removed within
                                   one cycle. Standalone, or hosted by
                                   convoy up as a per-network child

Hooks:
  hooks path [--for FAMILY] [--json]
                                   print where st's agent-integration hook
                                   scripts live + the exact install config
                                   (claude-code|codex|pi). Read-only; prints,
                                   never installs. --json for tools
  hook <event>                     run one agent-integration hook in process
                                   (session-start | pre-compact | stop-failure |
                                   codex-session-start | codex-stop)

Embedding:
  mcp                              run as an MCP stdio server
  init [<dir>] [--no-channel] [--print] [--force]
                                   write or merge .mcp.json in <dir>
                                   (default: cwd) so Claude Code loads
                                   the smalltalk MCP server
  ding <pty-session> [--identity ID] [--interval MS]
                                   busy-aware push notifier; pty-sends a
                                   notice on each new arrival when the agent
                                   isn't busy/dnd
  completions <shell>              print a shell completion script to
                                   stdout (fish | bash | zsh), e.g.
                                   {NAME} completions fish > \
                                     ~/.config/fish/completions/{NAME}.fish

Run ` + "`{NAME} message --help`" + ` for the full message-verb flag surface.
See LAYOUT.md for the data-format spec.
`
