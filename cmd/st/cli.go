package main

// cli is the command tree. kong builds its model from these structs: the
// dispatcher walks it to find the command, scan.go reads each command's
// flags from it, and every help text, the completion scripts and
// docs/cli.md are rendered from it (help.go), so the tree is the single
// description of verbs, flags, arguments and examples.
//
// Tags for help and completion (help.go): help, placeholder, group (kong's
// own); reads:"VAR …" (on a command) the environment it reads; form:"…"
// (on an argument) how the usage line writes it; predict:"…" closed
// values, or @agent/@message/@agent-message for names from the store;
// agent:"" (on a flag or argument) where the verb takes its agent.
//
// Tags beyond kong's own, read by scan.go:
//
//	missing:"…"  a value flag given last is an error with this text
//	             (%s is the flag as typed), instead of "not given"
//	digits:"…"   the value must be all digits, else this error
//	predict:"…"  the closed set of values offered by completions
//	loose:""     (on a command) unknown flags and extra arguments are
//	             ignored instead of refused
//	extra:"…"    (on a command) the error for one positional too many
//	             (%s is the argument), instead of "unexpected arg: %s"
type cli struct {
	Message      messageCmd      `cmd:"" aliases:"msg" group:"Messages" help:"send, list, read and file messages between agents"`
	Watch        watchCmd        `cmd:"" group:"Live state" reads:"ST_ROOT ST_AGENT" help:"print each message as it arrives in an inbox"`
	Status       statusCmd       `cmd:"" group:"Live state" reads:"ST_ROOT ST_AGENT XDG_STATE_HOME ST_HOST" help:"show or set an agent's status"`
	Agents       agentsCmd       `cmd:"" aliases:"members" group:"Live state" reads:"ST_ROOT ST_HOST ST_SYNC_STALE_S ST_OPERATOR ST_CONFIG" extra:"unknown flag: %s" help:"list the agents in the store"`
	Overview     overviewCmd     `cmd:"" group:"Live state" reads:"ST_ROOT ST_AGENT ST_HOST ST_SYNC_STALE_S ST_OPERATOR ST_CONFIG" extra:"unknown flag: %s" help:"summarise your inbox, every agent's status and recent activity"`
	Dashboard    dashboardCmd    `cmd:"" group:"Live state" reads:"ST_ROOT ST_AGENT ST_CONFIG ST_HOST ST_SYNC_STALE_S ST_OPERATOR PATH" extra:"unexpected arg: %s" help:"serve a live web page of the whole fleet"`
	Resource     resourceCmd     `cmd:"" group:"Resources" help:"publish and list the URLs an agent cares about"`
	Context      contextCmd      `cmd:"" group:"Restart context" help:"read or write an agent's restart context"`
	Reserve      reserveCmd      `cmd:"" group:"Reservations" reads:"ST_ROOT ST_AGENT" help:"reserve files of this repository so other agents keep off them"`
	Release      releaseCmd      `cmd:"" group:"Reservations" reads:"ST_ROOT ST_AGENT" help:"give back your reservations"`
	Reservations reservationsCmd `cmd:"" group:"Reservations" reads:"ST_ROOT" help:"list the active reservations"`
	Sync         syncGroup       `cmd:"" group:"Sync" reads:"ST_ROOT ST_CONFIG ST_HOST PATH RSYNC_RSH ST_SYNC_TIMEOUT_S ST_SYNC_REMOTE_ST XDG_STATE_HOME" help:"push or pull the store to and from peers with rsync"`
	Gc           gcCmd           `cmd:"" group:"Sync" help:"remove resurrected copies of archived messages"`
	Hooks        hooksCmd        `cmd:"" group:"Hooks" help:"show, install, remove or check st's Claude Code, Codex and Gemini CLI hooks"`
	Hook         hookCmd         `cmd:"" group:"Hooks" help:"run one hook event (called by Claude Code or Codex)"`
	Events       eventsCmd       `cmd:"" group:"Hooks" help:"print or prune the log of hook runs"`
	Trace        traceCmd        `cmd:"" group:"Hooks" help:"send finished sessions to an OpenTelemetry backend as traces"`
	Mcp          mcpCmd          `cmd:"" group:"Embedding" reads:"ST_ROOT ST_AGENT ST_CHANNEL_DEBUG" extra:"unknown flag: %s" help:"serve st's tools to an MCP client over stdio"`
	Init         initCmd         `cmd:"" group:"Embedding" extra:"unexpected positional arg: %s" help:"register st's MCP server in a project's .mcp.json"`
	Completions  completionsCmd  `cmd:"" group:"Embedding" help:"print a shell completion script"`
}
