package main

import (
	"fmt"

	"github.com/smalltalk-go/st/internal/duration"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
)

type messageSearchCmd struct {
	Agent   *string `placeholder:"ID" predict:"@agent" missing:"--agent requires a value" help:"search this agent's messages (default: $ST_AGENT)"`
	All     bool    `help:"search every agent's messages"`
	Archive bool    `help:"search archive/ as well as inbox/"`
	From    *string `placeholder:"ID" predict:"@agent" missing:"--from requires a value" help:"only messages from this sender"`
	Since   *string `placeholder:"WHEN" missing:"--since requires a duration or a time" help:"only messages sent at or after then: a duration ago (30m, 7d), a time (2026-12-02T10:00:00Z) or unix milliseconds"`
	JSON    bool    `name:"json" help:"print a JSON array of hits"`
	Query   *string `arg:"" optional:"" form:"<query>" help:"the text to find, case-insensitive, in subjects and bodies"`
}

// Help is search's paragraph.
func (messageSearchCmd) Help() string {
	return `Find messages whose subject or body contains <query>, ignoring case,
newest first, each with the line that matched. It reads the messages
themselves (no index to keep up to date), your inbox by default.`
}

func (messageSearchCmd) examples() []example {
	return []example{
		{"find what was said about the parser, everywhere", "st message search parser --all --archive"},
		{"what bob wrote about a flaky test in the last day", "st message search 'flaky test' --from bob --since 24h --json"},
	}
}

func (c *messageSearchCmd) Run(a *app) error {
	if c.Query == nil || *c.Query == "" {
		return sterr.Msg("%s message search requires a <query>", a.name)
	}
	if c.All && c.Agent != nil {
		return sterr.Msg("--agent and --all are mutually exclusive")
	}
	q := inbox.Query{Text: *c.Query, Folders: []string{inbox.Inbox}, MaxBytes: a.env.MaxMessageBytes()}
	if c.Archive {
		q.Folders = append(q.Folders, inbox.Archive)
	}
	if c.From != nil {
		q.From = *c.From
	}
	if c.Since != nil {
		since, err := duration.SinceMS(*c.Since, a.now())
		if err != nil {
			return err
		}
		q.Since = since
	}
	t := a.tree()
	defer t.Close()
	switch {
	case c.All:
		if t != nil {
			for _, ag := range agents.List(t, a.now(), agents.Options{}) {
				q.Agents = append(q.Agents, ag.Identity)
			}
		}
	default:
		explicit := ""
		if c.Agent != nil {
			explicit = *c.Agent
		}
		id, err := a.resolve(explicit, layout.Lenient)
		if err != nil {
			return err
		}
		q.Agents = []string{id}
	}
	var hits []inbox.Hit
	if t != nil {
		hits = inbox.Search(t, q)
	}
	if c.JSON {
		if hits == nil {
			hits = []inbox.Hit{}
		}
		_, err := a.stdout.Write(append(inbox.AppendHitsJSON(make([]byte, 0, 200*len(hits)+3), hits), '\n'))
		return err
	}
	lines := make([]string, 0, len(hits))
	for _, h := range hits {
		where := h.Filename
		if c.All {
			where = h.Agent + "/" + where
		}
		if h.Folder == inbox.Archive {
			where += " (archive)"
		}
		lines = append(lines, fmt.Sprintf("%s  %s  %s\n    %s", termsafe.Line(where), termsafe.Line(h.From), termsafe.Line(h.Subject), termsafe.Line(h.Line)))
	}
	fmt.Fprintf(a.stderr, "# %d %s\n", len(hits), pluralWord(len(hits), "match", "matches"))
	return a.printLines(lines)
}
