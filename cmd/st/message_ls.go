package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/duration"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
)

type messageLsCmd struct {
	Archive bool    `help:"list archive/ instead of inbox/"`
	Count   bool    `help:"print only the number of matches"`
	JSON    bool    `name:"json" help:"print a JSON array with each message's header fields"`
	Since   *string `placeholder:"WHEN" missing:"--since requires a duration or a time" help:"only messages sent at or after then: a duration ago (30m, 7d), a time (2026-12-02T10:00:00Z) or unix milliseconds"`
	From    *string `placeholder:"ID" predict:"@agent" help:"only messages from this sender (outside: files not written by st)"`
	Orphans bool    `help:"list attachments whose message is not in the folder"`
	Unacked bool    `help:"list the messages, inbox and archive, that ask for an acknowledgement not given yet (st message ack)"`
	Agent   string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose folder to list (default: $ST_AGENT)"`
}

func (c *messageLsCmd) Run(a *app) error {
	if c.Count && c.JSON {
		return sterr.Msg("--count and --json are mutually exclusive")
	}
	if c.Orphans && c.From != nil {
		return sterr.Msg("--orphans and --from are mutually exclusive (orphans have no frontmatter)")
	}
	var since *float64
	if c.Since != nil {
		ms, err := duration.SinceMS(*c.Since, a.now())
		if err != nil {
			return err
		}
		v := float64(ms)
		if ms == math.MaxInt64 {
			v = math.Inf(1) // digits past int64, as upstream's Number() reads them
		}
		since = &v
	}
	id, t, err := a.openAgent(c.Agent, layout.Lenient)
	if err != nil {
		return err
	}
	defer t.Close()
	folder := inbox.Inbox
	if c.Archive {
		folder = inbox.Archive
	}
	if c.Orphans {
		return c.printOrphans(a, t, id, folder, since)
	}
	if c.Unacked {
		var names []string
		if t != nil {
			names = inbox.Unacked(t, id)
		}
		if c.JSON {
			return a.printJSON(append([]string{}, names...))
		}
		if c.Count {
			_, err := fmt.Fprintln(a.stdout, len(names))
			return err
		}
		fmt.Fprintf(a.stderr, "# %d %s awaiting acknowledgement\n", len(names), pluralWord(len(names), "message", "messages"))
		return a.printNames(names)
	}
	f := inbox.Filter{Since: since}
	if c.From != nil {
		f.From = *c.From
	}
	if c.JSON {
		listing, err := inbox.ListJSON(t, id, folder, f)
		if err != nil {
			listing = inbox.ItemsJSON{} // a missing folder lists as empty
		}
		if _, err := listing.WriteTo(a.stdout); err != nil {
			return err
		}
		_, err = io.WriteString(a.stdout, "\n")
		return err
	}
	names, _ := inbox.Select(t, id, folder, f)
	if c.Count {
		fmt.Fprintln(a.stdout, len(names))
		return nil
	}
	fmt.Fprintf(a.stderr, "# %d %s in %s\n", len(names), pluralWord(len(names), "message", "messages"), folder)
	return a.printNames(names)
}

// orphanItem is one entry of `ls --orphans --json`.
type orphanItem struct {
	Filename string `json:"filename"`
	TS       int64  `json:"ts"`
}

func (c *messageLsCmd) printOrphans(a *app, t *fsutil.Tree, id, folder string, since *float64) error {
	names, err := inbox.Orphans(t, id, folder, since)
	// Upstream checks for a missing folder first and answers with the
	// message wording; only an unreadable folder gets the orphan wording.
	header := fmt.Sprintf("# %d %s in %s", len(names), pluralWord(len(names), "orphan attachment", "orphan attachments"), folder)
	if errors.Is(err, fs.ErrNotExist) {
		header = "# 0 messages in " + folder
	}
	switch {
	case c.Count:
		fmt.Fprintln(a.stdout, len(names))
	case c.JSON:
		items := []orphanItem{}
		for _, n := range names {
			ts, _ := strconv.ParseInt(n[:13], 10, 64)
			items = append(items, orphanItem{n, ts})
		}
		return a.printJSON(items)
	default:
		fmt.Fprintln(a.stderr, header)
		return a.printNames(names)
	}
	return nil
}

// printNames prints file names one per line, their control characters
// escaped: a name a peer shipped through sync may hold an escape sequence
// for the terminal, or a newline that forges a line of the listing.
func (a *app) printNames(names []string) error {
	lines := make([]string, len(names))
	for i, n := range names {
		lines[i] = termsafe.Line(n)
	}
	return a.printLines(lines)
}

// pluralWord picks upstream's word: the singular only for exactly 1.
func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Help is message ls's paragraph.
func (messageLsCmd) Help() string {
	return `Filenames are printed oldest first, one per line, after a count on stderr;
they sort by time, so the last line is the newest message. Listing changes
nothing: a message stays in the inbox until you archive it.`
}

func (messageLsCmd) examples() []example {
	return []example{
		{"list your inbox", "st message ls"},
		{"count bob's unread messages from alice", "st message ls bob --from alice --count"},
		{"what you archived in the last week, as JSON", "st message ls --archive --since 7d --json"},
	}
}
