package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/smalltalk-go/st/internal/duration"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/reserve"
)

type reserveCmd struct {
	Exclusive bool     `help:"nobody else may reserve or edit these paths (the default)"`
	Shared    bool     `help:"others may share them, but nobody may take them exclusively"`
	TTL       *string  `name:"ttl" placeholder:"DURATION" missing:"--ttl requires a duration" help:"how long it holds, e.g. 30m or 2h (default 1h, at most 168h)"`
	Reason    *string  `placeholder:"TEXT" missing:"--reason requires a value" help:"why, one line shown to whoever is refused (default: none)"`
	JSON      bool     `name:"json" help:"print the granted reservations as JSON"`
	Paths     []string `arg:"" optional:"" form:"<path-or-glob>..." help:"files, folders (a trailing /: everything under them) or globs: * and ? within a name, ** as a whole segment"`
}

func (c *reserveCmd) Run(a *app) error {
	if c.Exclusive && c.Shared {
		return sterr.Msg("--exclusive and --shared exclude each other")
	}
	if len(c.Paths) == 0 {
		return sterr.Msg("%s reserve requires at least one <path-or-glob>", a.name)
	}
	ttl := time.Duration(0)
	if c.TTL != nil {
		d, err := duration.Parse(*c.TTL)
		if err != nil {
			return err
		}
		if d <= 0 {
			return sterr.Msg("--ttl must be longer than 0")
		}
		ttl = d
	}
	req := reserve.Request{Mode: reserve.Exclusive, TTL: ttl}
	if c.Shared {
		req.Mode = reserve.Shared
	}
	if c.Reason != nil {
		req.Reason = *c.Reason
		if _, bad := termsafe.Control(req.Reason); bad {
			return sterr.New(reserve.InvalidReason, "--reason must be one line of plain text: it holds a control character", nil)
		}
	}
	repo, patterns, err := patternsHere(c.Paths)
	if err != nil {
		return err
	}
	req.Repo, req.Patterns = repo, patterns
	req.Host, _ = os.Hostname()
	id, t, err := a.openAgentWritable("", layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	req.Agent = id
	now := a.now()
	got, err := reserve.Reserve(context.Background(), t, req, now)
	if err != nil {
		return err
	}
	for _, r := range got {
		if !reserve.OnDisk(r.Repo, r.Pattern) {
			fmt.Fprintf(a.stderr, "%s: warning: %s matches nothing in %s yet (reserved all the same)\n", a.name, termsafe.Line(r.Pattern), termsafe.Line(r.Repo))
		}
	}
	if c.JSON {
		return a.printJSON(reservationsJSON(got, nil))
	}
	var lines []string
	for _, r := range got {
		lines = append(lines, fmt.Sprintf("reserved %s (%s) until %s in %s", termsafe.Line(r.Pattern), r.Mode, r.Expires.Format(time.RFC3339), termsafe.Line(r.Repo)))
	}
	return a.printLines(lines)
}

// patternsHere turns paths given in the working folder into one
// repository and its relative patterns.
func patternsHere(paths []string) (repo reserve.Where, patterns []string, err error) {
	cwd, err := os.Getwd()
	if err != nil {
		return reserve.Where{}, nil, err
	}
	for _, p := range paths {
		r, pat, err := reserve.Pattern(cwd, p)
		if err != nil {
			return reserve.Where{}, nil, err
		}
		if repo.Top != "" && r.Top != repo.Top {
			return reserve.Where{}, nil, sterr.Msg("%s and %s are in different repositories (%s, %s): reserve them separately", paths[0], p, repo.Top, r.Top)
		}
		repo = r
		patterns = append(patterns, pat)
	}
	return repo, patterns, nil
}

// reservationsJSON is the --json form of a list: each record as stored,
// plus conflict when a sync merged clashing grants.
func reservationsJSON(list []reserve.Reservation, conflicts map[string]bool) []map[string]any {
	out := make([]map[string]any, 0, len(list))
	for _, r := range list {
		m := map[string]any{"id": r.ID, "agent": r.Agent, "repo": r.Repo, "repo_id": r.RepoID, "repo_origin": r.Origin, "pattern": r.Pattern, "mode": r.Mode,
			"reason": r.Reason, "host": r.Host, "created": r.Created.UTC().Format(time.RFC3339Nano),
			"expires": r.Expires.UTC().Format(time.RFC3339Nano)}
		if conflicts != nil {
			m["conflict"] = conflicts[r.ID]
		}
		out = append(out, m)
	}
	return out
}

// Help is reserve's paragraph.
func (reserveCmd) Help() string {
	return `Paths are relative to the current folder and recorded relative to the git
repository's top level; the repository is known by its first commit, so
clones of it at other paths (other machines, after st sync) are the same
repository. An exclusive reservation refuses every other agent's
overlapping reservation and, through the hooks, their edits (Claude Code,
Codex) and commits (git); a shared one only refuses exclusive ones. All
paths are granted or none, and a refusal names the holder, the reason and
the expiry. Reserving again renews. Quote globs so the shell leaves them
alone.

A trailing / always means a folder and everything under it, and so does
an existing folder's name. A name that does not exist yet is reserved as
name/**: it covers a file of that name and a folder of that name with
everything under it, whichever appears. A reservation that matches nothing
on disk is granted with a warning. The reason is one line of plain text.`
}

func (reserveCmd) examples() []example {
	return []example{
		{"keep others out of the parser for two hours", "st reserve 'src/parser/**' --ttl 2h --reason 'rewriting the parser'"},
		{"share the module files, but let nobody take them alone", "st reserve go.mod go.sum --shared"},
		{"claim a package before creating it", "st reserve newpkg/"},
	}
}
