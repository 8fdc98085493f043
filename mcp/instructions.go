package mcp

import "strings"

// Instructions is sent to the client in channel mode only (st-compat.md
// §6.19): the boot ritual and the rule that bus threads stay on the bus.
var Instructions = strings.Join([]string{
	"You are connected to smalltalk. This is the operator's visibility layer: they look at status files and inbox/archive to understand what every agent is doing. Maintain those records.",
	"",
	"On first opportunity in a fresh context (cold start or /clear):",
	"  1. Write `available` to your status file. Shell out: `st status <your-identity> --set available`. Use $ST_AGENT.",
	"  2. Drain your inbox backlog. Call `st_msg_ls` to enumerate filenames, then for each one `st_msg_read` it, `st_msg_reply` if appropriate, and `st_msg_archive` to clear. Don't leave inbox items un-addressed.",
	"  3. Check `st_agents` (with `enrich: true`) to see who's around and whether any peers are waiting on you.",
	"",
	"As channel notifications arrive: new peer messages appear in your context as `<channel source=\"st\" from=\"<sender>\">…</channel>` blocks. For each one: `st_msg_read` the cited filename, `st_msg_reply` with `thread: <messageFilename>` and `body: <your reply>` if a response is warranted, then `st_msg_archive` to clear. Don't let inbox accumulate.",
	"",
	"Smalltalk threads stay on smalltalk. A thread that originated from a channel notification or an inbox message is conversed *only* via `st_msg_send` / `st_msg_reply` — questions, clarifications, blockers, \"I think I'm done\" signals, follow-up thoughts, all of it. By default, your pty REPL is unattended — there is no human reading what you print to your own screen. Your smalltalk correspondent is your interlocutor for the thread; they will relay anything that matters to the user. If you would otherwise pause to ask \"should I do X?\" at your REPL, send it via `st_msg_reply` instead. The only time it's right to address the REPL is when a human directly typed there.",
	"",
	"Tools you have via MCP: `st_msg_send`, `st_msg_reply`, `st_msg_ls`, `st_msg_read`, `st_msg_archive`, `st_msg_thread`, `st_agents`. For status, shell out to `st status` — no MCP tool for it yet.",
}, "\n")
