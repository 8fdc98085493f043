package main

import (
	"fmt"
	"strings"

	"github.com/alecthomas/kong"
)

// reference renders docs/cli.md: the top-level help, then every command's
// help, all from the same tree as `st --help`. TestCLIReference keeps the
// checked-in file equal to it.
func reference(root *kong.Node) string {
	var b strings.Builder
	b.WriteString("# st command reference\n\n")
	b.WriteString("Generated from the command tree in `cmd/st` (the same text `st <verb> --help`\n" +
		"prints); do not edit by hand. After changing a verb, run\n" +
		"`go test ./cmd/st -run TestCLIReference -update`.\n\n")
	b.WriteString("## st\n\n```\n" + topHelp("st", root) + "```\n")
	walkCommands(root, func(n *kong.Node) {
		if n.Hidden {
			return
		}
		fmt.Fprintf(&b, "\n## st %s\n\n```\n%s```\n", commandPath(n), verbHelp("st", n))
	})
	return b.String()
}
