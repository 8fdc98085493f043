package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/resource"
)

// resourceCmd groups the resource verbs: an agent's annotated URLs.
type resourceCmd struct {
	Add  resourceAddCmd  `cmd:"" help:"publish a URL"`
	Ls   resourceLsCmd   `cmd:"" help:"list an agent's resources"`
	Read resourceReadCmd `cmd:"" help:"print one resource"`
	Rm   resourceRmCmd   `cmd:"" aliases:"remove" help:"delete one of your resources"`
}

func init() {
	groups["resource"] = group{
		usage:      resourceHelp,
		helpWords:  []string{"help", "-h", "--help"},
		noVerbCode: exitUsage,
		unknown: func(a *app, v string) string {
			return fmt.Sprintf("%s resource: unknown subcommand: %s\n\n", a.name, v)
		},
		unknownCode: exitUsage,
	}
}

func resourceHelp(a *app) string {
	return named(`usage: {NAME} resource <subcommand> [args...]

  add <url> [--title T] [--tag T,T] [--relation REL] [--body-stdin]
  ls [<identity>]
  read [<identity>] <filename>
  rm <filename>

  Resources live at $ST_ROOT/<identity>/resources/.
  Each file is <unix-ms>-<rand6>.md with `+"`url:`"+` in frontmatter
  and an optional description in the body. Single-writer: only
  the identity owner writes; peers read via sync.

  --relation REL  Optional, free-form. Canonical (non-enforced)
                  values: `+"`owns`, `relates-to`, `depends-on`"+`.
                  Never inferred; absent by default. The bare
                  URL is first-class with or without it.

  Examples:
    {NAME} resource add https://github.com/org/repo/pull/9 --title "the PR" --tag repo
    {NAME} resource ls bob     # what URLs has bob published?
`, a.name)
}

// Every sub-verb's --help prints the group help.
func (c *resourceAddCmd) help(a *app) string  { return resourceHelp(a) }
func (c *resourceLsCmd) help(a *app) string   { return resourceHelp(a) }
func (c *resourceReadCmd) help(a *app) string { return resourceHelp(a) }
func (c *resourceRmCmd) help(a *app) string   { return resourceHelp(a) }

type resourceAddCmd struct {
	Title     string   `help:"title"`
	Tag       []string `sep:"none" help:"comma-separated tags (repeatable)"`
	Relation  string   `predict:"owns,relates-to,depends-on" help:"free-form relation, e.g. owns"`
	BodyStdin bool     `name:"body-stdin" help:"read a description from stdin"`
	URL       *string  `arg:"" optional:"" help:"the URL"`
}

func (c *resourceAddCmd) Run(a *app) error {
	if c.URL == nil {
		return sterr.Msg("st resource add requires a <url>")
	}
	var body []byte
	if c.BodyStdin {
		b, err := io.ReadAll(a.stdin)
		if err != nil {
			return err
		}
		body = []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	if err := resource.CheckURL(*c.URL); err != nil {
		return err
	}
	id, t, err := a.openAgentWritable("", layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	r := resource.Resource{URL: *c.URL, Title: c.Title, Tags: resource.SplitTags(c.Tag...), Relation: c.Relation, Body: body}
	name, err := resource.Add(t, id, r, a.now())
	if err != nil {
		return err
	}
	fmt.Fprintln(a.stdout, name)
	return nil
}

type resourceLsCmd struct {
	JSON  bool   `name:"json" help:"a JSON array"`
	Agent string `arg:"" optional:"" help:"agent"`
}

func (c *resourceLsCmd) Run(a *app) error {
	id, t, err := a.openAgent(c.Agent, layout.Lenient)
	if err != nil {
		return err
	}
	defer t.Close()
	names := resource.List(t, id)
	if c.JSON {
		return a.printJSON(names)
	}
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	_, err = io.WriteString(a.stdout, b.String())
	return err
}

type resourceReadCmd struct {
	JSON bool     `name:"json" help:"JSON output"`
	Args []string `arg:"" optional:"" help:"[<identity>] <filename>"`
}

func (c *resourceReadCmd) Run(a *app) error {
	var agent, filename string
	switch len(c.Args) {
	case 1:
		filename = c.Args[0]
	case 2:
		agent, filename = c.Args[0], c.Args[1]
	default:
		return sterr.Msg("st resource read requires [<identity>] <filename>")
	}
	if err := resource.CheckName(filename); err != nil {
		return err
	}
	id, t, err := a.openAgent(agent, layout.Lenient)
	if err != nil {
		return err
	}
	defer t.Close()
	rec, err := resource.Read(t, id, filename)
	if err != nil {
		return err
	}
	if c.JSON {
		return a.printJSON(struct {
			Identity string `json:"identity"`
			resource.Record
		}{id, rec})
	}
	var b strings.Builder
	b.WriteString("url: " + rec.URL + "\n")
	if rec.Title != nil {
		b.WriteString("title: " + *rec.Title + "\n")
	}
	if len(rec.Tags) > 0 {
		b.WriteString("tags: " + strings.Join(rec.Tags, ", ") + "\n")
	}
	if rec.Relation != nil {
		b.WriteString("relation: " + *rec.Relation + "\n")
	}
	if rec.Body != "" {
		b.WriteString("\n" + rec.Body)
		if !strings.HasSuffix(rec.Body, "\n") {
			b.WriteString("\n")
		}
	}
	_, err = io.WriteString(a.stdout, b.String())
	return err
}

type resourceRmCmd struct {
	Args []string `arg:"" optional:"" help:"<filename>"`
}

func (c *resourceRmCmd) Run(a *app) error {
	if len(c.Args) != 1 {
		return sterr.Msg("st resource rm requires a <filename>")
	}
	filename := c.Args[0]
	if err := resource.CheckName(filename); err != nil {
		return err
	}
	id, t, err := a.openAgentWritable("", layout.Create)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := resource.Remove(t, id, filename); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "%s/%s: removed\n", id, filename)
	return nil
}
