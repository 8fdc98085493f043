package main

// eventsCmd groups the event-log verbs: the bare verb shows the log,
// `prune` ages it out.
type eventsCmd struct {
	Show  eventsShowCmd  `cmd:"" default:"withargs" hidden:"" reads:"ST_ROOT ST_AGENT" help:"print an agent's log of hook runs"`
	Prune eventsPruneCmd `cmd:"" reads:"ST_ROOT" help:"delete event logs older than a duration"`
}

// eventsGroup is how `st events` reacts to a missing or unknown sub-verb.
var eventsGroup = group{}

// Help is events' paragraph.
func (eventsCmd) Help() string {
	return `Every hook run appends one line to $ST_ROOT/<identity>/events/<session>.jsonl:
the time, the session, the event, the tool with its file or command, sizes
and errors. events prints them oldest first; events prune deletes old logs.`
}

func (eventsShowCmd) examples() []example {
	return []example{
		{"your hook runs in the last two hours", "st events --since 2h"},
		{"follow bob's current session as it runs", "st events bob --session 7f3c2a --follow"},
	}
}

func (eventsPruneCmd) examples() []example {
	return []example{
		{"delete every agent's logs older than 30 days", "st events prune"},
		{"delete bob's logs older than a week", "st events prune bob --older-than 7d"},
	}
}
