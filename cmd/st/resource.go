package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/resource"
)

// resourceCmd groups the resource verbs: an agent's annotated URLs.
type resourceCmd struct {
	Add  resourceAddCmd  `cmd:"" reads:"ST_ROOT ST_AGENT ST_MAX_MESSAGE_BYTES" help:"publish a URL you work on"`
	Ls   resourceLsCmd   `cmd:"" reads:"ST_ROOT ST_AGENT" help:"list an agent's published URLs"`
	Read resourceReadCmd `cmd:"" reads:"ST_ROOT ST_AGENT" help:"print one published URL with its details"`
	Rm   resourceRmCmd   `cmd:"" aliases:"remove" reads:"ST_ROOT ST_AGENT" help:"withdraw one of your published URLs"`
}

// resourceGroup is how `st resource` reacts to a missing or unknown sub-verb.
var resourceGroup = group{
	noVerbCode: exitUsage,
	unknown: func(a *app, v string) string {
		return fmt.Sprintf("%s resource: unknown subcommand: %s\n\n", a.name, v)
	},
	unknownCode: exitUsage,
}

// Every sub-verb's --help prints the group help.

type resourceAddCmd struct {
	Title     string   `placeholder:"T" help:"a short title (default: none)"`
	Tag       []string `sep:"none" placeholder:"T,T" help:"comma-separated tags; may be repeated (default: none)"`
	Relation  string   `placeholder:"REL" predict:"owns,relates-to,depends-on" help:"how you relate to it, e.g. owns or depends-on (default: none)"`
	BodyStdin bool     `name:"body-stdin" help:"read a longer description from stdin"`
	URL       *string  `arg:"" optional:"" form:"<url>" help:"the URL to publish"`
}

func (c *resourceAddCmd) Run(a *app) error {
	if c.URL == nil {
		return sterr.Msg("st resource add requires a <url>")
	}
	var body []byte
	if c.BodyStdin {
		b, err := layout.ReadAllWithin(a.stdin, "resource", a.env.MaxMessageBytes())
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
	if err := resource.CheckSize(r, a.env.MaxMessageBytes()); err != nil {
		return err
	}
	name, err := resource.Add(t, id, r, a.now())
	if err != nil {
		return err
	}
	fmt.Fprintln(a.stdout, name)
	return nil
}

type resourceLsCmd struct {
	JSON  bool   `name:"json" help:"print a JSON array"`
	Agent string `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose resources (default: $ST_AGENT)"`
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
		b.WriteString(termsafe.Line(n) + "\n")
	}
	_, err = io.WriteString(a.stdout, b.String())
	return err
}

type resourceReadCmd struct {
	JSON bool     `name:"json" help:"print one JSON object"`
	Args []string `arg:"" optional:"" form:"[<identity>] <filename>" agent:"" help:"whose resources (default: $ST_AGENT) and the resource's filename"`
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
	rec, err := resource.Read(t, id, filename, -1) // printed whole, as asked
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
	b.WriteString("url: " + termsafe.Line(rec.URL) + "\n")
	if rec.Title != nil {
		b.WriteString("title: " + termsafe.Line(*rec.Title) + "\n")
	}
	if len(rec.Tags) > 0 {
		b.WriteString("tags: " + termsafe.Line(strings.Join(rec.Tags, ", ")) + "\n")
	}
	if rec.Relation != nil {
		b.WriteString("relation: " + termsafe.Line(*rec.Relation) + "\n")
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
	Args []string `arg:"" optional:"" form:"<filename>" help:"the filename resource ls printed"`
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

// Help is resource's paragraph.
func (resourceCmd) Help() string {
	return `A resource is a URL an agent works on (a pull request, a dashboard, a
design document), kept as one small file under the agent's resources/ so
others can find who owns what.`
}

func (resourceAddCmd) examples() []example {
	return []example{
		{"publish the pull request you own", "st resource add https://github.com/acme/api/pull/42 --title 'retry budget' --relation owns"},
		{"publish a document with tags and a description", "echo 'the rollout plan' | st resource add https://docs.acme.dev/rollout --tag plan,q3 --body-stdin"},
	}
}

func (resourceLsCmd) examples() []example {
	return []example{
		{"your resources", "st resource ls"},
		{"bob's, as JSON", "st resource ls bob --json"},
	}
}

func (resourceReadCmd) examples() []example {
	return []example{
		{"one of your resources", "st resource read 1795966371663-k3x9qa.md"},
		{"one of bob's, as JSON", "st resource read bob 1795966371663-k3x9qa.md --json"},
	}
}

func (resourceRmCmd) examples() []example {
	return []example{
		{"withdraw a resource", "st resource rm 1795966371663-k3x9qa.md"},
		{"the same, by its other name", "st resource remove 1795966371663-k3x9qa.md"},
	}
}
