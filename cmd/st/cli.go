package main

// cli is the command tree. kong builds its model from these structs: the
// dispatcher walks it to find the command, scan.go reads each command's
// flags from it, and the completion scripts are generated from it, so
// the tree is the single list of verbs and flags.
//
// Tags beyond kong's own, read by scan.go:
//
//	missing:"…"  a value flag given last is an error with this text
//	             (%s is the flag as typed), instead of "not given"
//	digits:"…"   the value must be all digits, else this error
//	predict:"…"  the closed set of values offered by completions
//	loose:""     (on a command) unknown flags and extra arguments are
//	             ignored instead of refused
//	nohelp:""    (on a command) -h and --help are ordinary arguments
//	extra:"…"    (on a command) the error for one positional too many
//	             (%s is the argument), instead of "unexpected arg: %s"
type cli struct {
	Message      messageCmd      `cmd:"" aliases:"msg" help:"send/reply/read/archive on the bus"`
	Watch        watchCmd        `cmd:"" help:"follow inbox arrivals"`
	Status       statusCmd       `cmd:"" help:"get or set an agent status"`
	Agents       agentsCmd       `cmd:"" aliases:"members" extra:"unknown flag: %s" help:"who's around"`
	Overview     overviewCmd     `cmd:"" extra:"unknown flag: %s" help:"at-a-glance dashboard"`
	Dashboard    dashboardCmd    `cmd:"" extra:"unexpected arg: %s" help:"serve a live web page of the whole fleet"`
	Resource     resourceCmd     `cmd:"" help:"publish and list the URLs an agent cares about"`
	Context      contextCmd      `cmd:"" help:"read or write an agent's restart context"`
	Reserve      reserveCmd      `cmd:"" help:"reserve files of this repository for yourself"`
	Release      releaseCmd      `cmd:"" help:"release your reservations"`
	Reservations reservationsCmd `cmd:"" help:"list the active reservations"`
	Sync         syncCmd         `cmd:"" help:"push or pull the store with rsync"`
	Gc           gcCmd           `cmd:"" help:"long-running tombstone GC"`
	Hooks        hooksCmd        `cmd:"" help:"print or install the agent-integration hooks"`
	Hook         hookCmd         `cmd:"" help:"run one agent-integration hook in process"`
	Events       eventsCmd       `cmd:"" help:"print or prune the hook event log"`
	Mcp          mcpCmd          `cmd:"" help:"run as an MCP stdio server" extra:"unknown flag: %s"`
	Init         initCmd         `cmd:"" help:"write or merge .mcp.json" extra:"unexpected positional arg: %s"`
	Completions  completionsCmd  `cmd:"" help:"print a shell completion script"`
}
