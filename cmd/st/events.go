package main

// eventsCmd groups the event-log verbs: the bare verb shows the log,
// `prune` ages it out.
type eventsCmd struct {
	Show  eventsShowCmd  `cmd:"" default:"withargs" hidden:"" help:"print an agent's hook event log"`
	Prune eventsPruneCmd `cmd:"" help:"remove event logs older than a duration"`
}

func init() {
	groups["events"] = group{
		usage:     eventsUsage,
		helpWords: []string{"-h", "--help"},
	}
}

func eventsUsage(a *app) string {
	return named(`usage: {NAME} events [<identity>] [--session ID] [--since DUR] [--json] [--follow]
       {NAME} events prune [<identity>] [--older-than DUR]

  Print the hook event log: one line per hook run (time, session, event,
  tool, file or command, sizes, errors), oldest first. Each Claude Code
  session has its own log: $ST_ROOT/<identity>/events/<session_id>.jsonl.

  --session ID     only that session (no-session: events without one)
  --since DUR      only events newer than DUR ago (90s, 30m, 2h, 7d, 1h30m)
  --json           the log lines themselves, one JSON object per line
  --follow         keep printing events as they are appended (Ctrl-C stops)

  prune removes session logs (and their hook state) last written more
  than --older-than ago (default 30d), for <identity> or, without one,
  for every agent in the store.
`, a.name)
}

func (c *eventsShowCmd) help(a *app) string  { return eventsUsage(a) }
func (c *eventsPruneCmd) help(a *app) string { return eventsUsage(a) }
