package main

import (
	"io"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
)

type contextReadCmd struct {
	Decisions bool   `help:"print the decisions log instead of now.md"`
	Full      bool   `help:"print now.md, then the decisions log"`
	Agent     string `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose context (default: $ST_AGENT)"`
}

func (c *contextReadCmd) Run(a *app) error {
	id, t, err := a.openAgent(c.Agent, layout.Strict)
	if err != nil {
		return err
	}
	defer t.Close()
	var text string
	switch c.part(a.args) {
	case "decisions":
		text, _ = agentctx.Decisions(t, id)
	case "full":
		text, _ = agentctx.Full(t, id)
	default:
		text, _ = agentctx.ReadNow(t, id)
	}
	_, err = io.WriteString(a.stdout, text)
	return err
}

// part is the last of --decisions and --full on the command line.
func (c *contextReadCmd) part(args []string) string {
	part := "now"
	for _, arg := range args {
		switch arg {
		case "--decisions":
			part = "decisions"
		case "--full":
			part = "full"
		}
	}
	return part
}
