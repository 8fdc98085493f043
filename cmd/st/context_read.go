package main

import (
	"io"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
)

type contextReadCmd struct {
	Decisions bool   `help:"print the decisions log instead of now.md"`
	Full      bool   `help:"print now.md, then the decisions log"`
	JSON      bool   `name:"json" help:"print one JSON object: identity, file (now, decisions or full), text and absent"`
	Agent     string `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose context (default: $ST_AGENT)"`
}

func (c *contextReadCmd) Run(a *app) error {
	id, t, err := a.openAgent(c.Agent, layout.Strict)
	if err != nil {
		return err
	}
	defer t.Close()
	var text string
	var ok bool
	part := c.part(a.args)
	switch part {
	case "decisions":
		text, ok = agentctx.Decisions(t, id)
	case "full":
		text, ok = agentctx.Full(t, id)
	default:
		text, ok = agentctx.ReadNow(t, id)
	}
	if c.JSON {
		return a.printJSON(contextJSON{id, part, text, !ok})
	}
	_, err = io.WriteString(a.stdout, text)
	return err
}

// contextJSON is what `context read --json` prints: the shape of the MCP
// tool st_context_read's result, so a script and a model read the same.
type contextJSON struct {
	Identity string `json:"identity"`
	File     string `json:"file"`
	Text     string `json:"text"`
	Absent   bool   `json:"absent"` // nothing saved yet, unlike an empty file
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
