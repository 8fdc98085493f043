package main

import (
	"fmt"
	"math"
	"strconv"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
)

type messageTrimCmd struct {
	OlderThan       *string `name:"older-than" help:"trim files older than DURATION (e.g. 90d, 12h, 2w)"`
	KeepLast        *string `name:"keep-last" digits:"--keep-last must be a non-negative integer" missing:"--keep-last must be a non-negative integer" help:"keep the newest N files"`
	DryRun          bool    `name:"dry-run" help:"list the victims, delete nothing"`
	WithAttachments bool    `name:"with-attachments" help:"also trim the victims' attachments"`
	Agent           string  `arg:"" optional:"" help:"agent"`
}

func (c *messageTrimCmd) help(a *app) string {
	return named(`usage: {NAME} message archive trim [<identity>] [--older-than DURATION] [--keep-last N] [--dry-run] [--with-attachments]
`, a.name)
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
