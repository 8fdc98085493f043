package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
)

type messageTrimCmd struct {
	OlderThan       *string `name:"older-than" placeholder:"DURATION" help:"delete files older than this, e.g. 90d, 12h, 1.5h, 2w (default: no age limit)"`
	KeepLast        *string `name:"keep-last" placeholder:"N" digits:"--keep-last must be a non-negative integer" missing:"--keep-last must be a non-negative integer" help:"always keep the newest N files (default: no count limit)"`
	DryRun          bool    `name:"dry-run" help:"print what would be deleted and delete nothing"`
	WithAttachments bool    `name:"with-attachments" help:"also delete the trimmed messages' attachments"`
	Agent           string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose archive (default: $ST_AGENT)"`
}

func (c *messageTrimCmd) Run(a *app) error {
	id, t, err := a.openAgent(c.Agent, layout.Strict)
	if err != nil {
		return err
	}
	defer t.Close()
	o := inbox.TrimOptions{OlderThan: c.OlderThan, DryRun: c.DryRun, WithAttachments: c.WithAttachments, Now: a.now()}
	if c.KeepLast != nil {
		n, err := strconv.Atoi(*c.KeepLast)
		if err != nil {
			n = math.MaxInt // all digits, so only an overflow: keep everything
		}
		o.KeepLast = &n
	}
	res, err := inbox.Trim(t, id, o)
	if err != nil {
		return err
	}
	for _, f := range append(res.Victims, res.Attachments...) {
		fmt.Fprintln(a.stdout, f)
	}
	n, word := len(res.Victims), pluralWord(len(res.Victims), "file", "files")
	if c.DryRun {
		fmt.Fprintf(a.stderr, "# would trim %d %s (dry run; nothing deleted)\n", n, word)
	} else {
		fmt.Fprintf(a.stderr, "# trimmed %d %s\n", n, word)
	}
	if k := len(res.Attachments); k > 0 {
		verb := "also trimmed"
		if c.DryRun {
			verb = "would also trim"
		}
		fmt.Fprintf(a.stderr, "# %s %d %s\n", verb, k, pluralWord(k, "attachment", "attachments"))
	}
	return nil
}

// Help is message archive trim's paragraph.
func (messageTrimCmd) Help() string {
	return `Deletes archived messages (never inbox ones) that are older than --older-than
and beyond the newest --keep-last; with both, a file must fail both to go.
The deleted filenames are printed on stdout. Try --dry-run first.`
}

func (messageTrimCmd) examples() []example {
	return []example{
		{"see what a 90-day trim would delete", "st message archive trim --older-than 90d --dry-run"},
		{"keep only bob's newest 500 archived messages", "st message archive trim bob --keep-last 500 --with-attachments"},
	}
}
