package main

import (
	"context"
	"fmt"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/reserve"
)

type releaseCmd struct {
	All   bool     `help:"release every reservation you hold, in every repository"`
	Paths []string `arg:"" optional:"" form:"<path-or-glob>..." help:"paths or globs as you reserved them, relative to the current folder"`
}

func (c *releaseCmd) Run(a *app) error {
	if c.All == (len(c.Paths) > 0) {
		return sterr.Msg("%s release requires <path-or-glob>... or --all", a.name)
	}
	repo, patterns := reserve.Where{}, []string(nil)
	if !c.All {
		var err error
		if repo, patterns, err = patternsHere(c.Paths); err != nil {
			return err
		}
	}
	id, t, err := a.openAgentWritable("", layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	got, err := reserve.Release(context.Background(), t, id, repo, patterns, a.now())
	if err != nil {
		return err
	}
	lines := []string{fmt.Sprintf("released %d", len(got))}
	for _, r := range got {
		lines = append(lines, fmt.Sprintf("  %s (%s) in %s", termsafe.Line(r.Pattern), r.Mode, termsafe.Line(r.Repo)))
	}
	return a.printLines(lines)
}

// Help is release's paragraph.
func (releaseCmd) Help() string {
	return `Give either the paths you reserved in the repository you are in, or --all.
Releasing what you do not hold is not an error; what was released is
printed.`
}

func (releaseCmd) examples() []example {
	return []example{
		{"done with the parser", "st release 'src/parser/**'"},
		{"let the others in everywhere", "st release --all"},
	}
}
