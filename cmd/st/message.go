package main

import "fmt"

// messageCmd groups the message verbs (alias msg).
type messageCmd struct {
	Send    messageSendCmd    `cmd:"" reads:"ST_ROOT ST_AGENT ST_STDIN_TIMEOUT_MS ST_MAX_MESSAGE_BYTES XDG_STATE_HOME" help:"deliver a message to an agent's inbox"`
	Reply   messageReplyCmd   `cmd:"" reads:"ST_ROOT ST_AGENT ST_STDIN_TIMEOUT_MS ST_MAX_MESSAGE_BYTES XDG_STATE_HOME" help:"answer a message; it goes to the original sender"`
	Ls      messageLsCmd      `cmd:"" reads:"ST_ROOT ST_AGENT" help:"list the messages in an inbox or archive"`
	Read    messageReadCmd    `cmd:"" reads:"ST_ROOT ST_AGENT CLAUDECODE GEMINI_CLI" help:"print one message with its header fields"`
	Archive messageArchiveCmd `cmd:"" reads:"ST_ROOT ST_AGENT" help:"move a handled message from the inbox to the archive"`
	Thread  messageThreadCmd  `cmd:"" reads:"ST_ROOT ST_AGENT" help:"print the conversation a message belongs to"`
	Search  messageSearchCmd  `cmd:"" reads:"ST_ROOT ST_AGENT" help:"find messages by their text, newest first"`
	Ack     messageAckCmd     `cmd:"" reads:"ST_ROOT ST_AGENT" help:"acknowledge a message that asks for it"`
}

// messageGroup is how `st message` reacts to a missing or unknown sub-verb.
var messageGroup = group{
	noVerbCode:  exitUsage,
	unknown:     func(a *app, v string) string { return fmt.Sprintf("%s message: unknown subcommand: %s\n\n", a.name, v) },
	unknownCode: exitUsage,
}

// Help is the message group's paragraph.
func (messageCmd) Help() string {
	return `A message is one Markdown file with a small frontmatter header. Sending
links it into the recipient's inbox/ under a new time-ordered filename;
reading never changes it; archiving moves it to archive/, which also marks
it as handled everywhere the store is synced.`
}

func (messageCmd) examples() []example {
	return []example{
		{"send bob a message", "st message send bob -m 'tests are green on main'"},
		{"list your inbox, then read the newest message", "st message ls && st message read $(st message ls | tail -1)"},
	}
}
