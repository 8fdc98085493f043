package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/message"
)

type messageReadCmd struct {
	Raw     bool     `help:"print the file exactly as stored"`
	JSON    bool     `name:"json" help:"print one JSON object with the header fields and body"`
	Archive bool     `help:"look in archive/ before inbox/"`
	Args    []string `arg:"" optional:"" form:"[<identity>] <filename>" predict:"@agent-message" agent:"" help:"whose folder (default: $ST_AGENT) and the message's filename"`
}

// splitPositionals reads [<identity>] <filename> as read, archive and
// thread do: one argument is a filename when it ends in .md, else an
// agent; two are agent and filename; more are too many.
func splitPositionals(args []string) (agent, filename string, err error) {
	switch len(args) {
	case 0:
	case 1:
		if strings.HasSuffix(args[0], ".md") {
			filename = args[0]
		} else {
			agent = args[0]
		}
	case 2:
		agent, filename = args[0], args[1]
	default:
		return "", "", sterr.Msg("too many arguments")
	}
	if filename == "" {
		return "", "", sterr.Msg("<filename> required")
	}
	return agent, filename, nil
}

func (c *messageReadCmd) Run(a *app) error {
	if c.Raw && c.JSON {
		return sterr.Msg("--raw and --json are mutually exclusive")
	}
	agent, name, err := splitPositionals(c.Args)
	if err != nil {
		return err
	}
	id, t, err := a.openAgent(agent, layout.Lenient)
	if err != nil {
		return err
	}
	defer t.Close()
	if !message.IsDeliverable(name) {
		return sterr.InvalidName(name)
	}
	where, data, err := inbox.Read(t, id, name, c.Archive)
	if err != nil {
		return err
	}
	text := inbox.Text(data)
	switch {
	case c.Raw:
		_, err = io.WriteString(a.stdout, text)
		return err
	case c.JSON:
		return a.printJSON(readJSON{name, id, where.Folder, inbox.Project(name, text)})
	}
	label := where.Folder + "/" + name
	if message.IsOutside(name) {
		fmt.Fprintf(a.stderr, "# %s (outside: non-canonical filename)\n", label)
		_, err = io.WriteString(a.stdout, text)
		return err
	}
	fields, body, ok := message.Parse(text)
	if !ok {
		fmt.Fprintf(a.stderr, "# %s (untyped: no frontmatter)\n", label)
		_, err = io.WriteString(a.stdout, text)
		return err
	}
	var h strings.Builder
	fmt.Fprintf(&h, "# %s\n", label)
	fmt.Fprintf(&h, "to:          %s  (derived from path)\n", id)
	fmt.Fprintf(&h, "ts:          %s  (derived from filename)\n", name[:13])
	for _, key := range []string{"from", "subject", "in-reply-to", "tags", "priority"} {
		if v := fields[key]; v != "" {
			fmt.Fprintf(&h, "%-12s %s\n", key+":", termsafe.Line(v))
		}
	}
	h.WriteString("\n")
	io.WriteString(a.stderr, h.String())
	_, err = io.WriteString(a.stdout, body)
	return err
}

// readJSON is the object `message read --json` prints.
type readJSON struct {
	Filename string           `json:"filename"`
	Identity string           `json:"identity"`
	Folder   string           `json:"folder"`
	Message  inbox.Projection `json:"message"`
}

// Help is message read's paragraph.
func (messageReadCmd) Help() string {
	return `The header fields go to stderr and the body to stdout, so the body can be
piped on its own. One argument ending in .md is a filename in your own
folders; inbox/ is searched before archive/ unless --archive is given.
Reading does not archive the message.`
}

func (messageReadCmd) examples() []example {
	return []example{
		{"read a message from your inbox", "st message read 1795966371663-k3x9qa.md"},
		{"print one of bob's archived messages as JSON", "st message read bob 1795966371663-k3x9qa.md --archive --json"},
	}
}
