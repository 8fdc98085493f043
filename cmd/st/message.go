package main

import "fmt"

// messageCmd groups the message verbs (alias msg).
type messageCmd struct {
	Send    messageSendCmd    `cmd:"" help:"send a message"`
	Reply   messageReplyCmd   `cmd:"" help:"reply to a message's sender"`
	Ls      messageLsCmd      `cmd:"" help:"list an inbox or archive"`
	Read    messageReadCmd    `cmd:"" help:"print one message"`
	Archive messageArchiveCmd `cmd:"" help:"move a message to the archive"`
	Thread  messageThreadCmd  `cmd:"" help:"print a message's thread"`
}

func init() {
	groups["message"] = group{
		usage:       messageUsage,
		helpWords:   []string{"help", "-h", "--help"},
		helpStdout:  true,
		noVerbCode:  exitUsage,
		unknown:     func(a *app, v string) string { return fmt.Sprintf("%s message: unknown subcommand: %s\n\n", a.name, v) },
		unknownCode: exitUsage,
	}
}

func messageUsage(a *app) string {
	return named(`usage: {NAME} message <verb> [args...]   (alias: {NAME} msg <verb>)

  send <to> [-m <body> | --message <body>] [--from ID] [--subject S]
           [--in-reply-to F] [--tags T,T] [--priority P]
                                   read body from stdin if -m omitted
  reply <thread-filename> [-m <body> | --message <body>] [--subject S] [--from ID]
                                   recipient derived from thread's from:
  ls [<identity>] [--archive] [--count|--json] [--since UNIX_MS] [--from ID] [--orphans]
  read [<identity>] <filename> [--raw|--json] [--archive]
  archive [<identity>] <filename> [--with-attachments]
  archive trim [<identity>] [--older-than DURATION] [--keep-last N] [--dry-run]
                                   [--with-attachments]
  thread [<identity>] <filename> [--tree]

  Example: echo 'hi bob' | {NAME} message send bob --subject hello
  Tip: run `+"`{NAME} message <verb> --help`"+` for a verb's flags + examples.
`, a.name)
}
