package main

import (
	"fmt"
	"path/filepath"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
)

type contextWriteCmd struct {
	Agent string `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose now.md (default: $ST_AGENT)"`
}

func (c *contextWriteCmd) Run(a *app) error {
	// A now.md over the maximum message size is refused (the hooks and the
	// MCP tools read no more of it anyway).
	body, err := layout.ReadAllWithin(a.stdin, "now.md", a.env.MaxMessageBytes())
	if err != nil {
		return err
	}
	id, t, err := a.openAgentWritable(c.Agent, layout.Strict)
	if err != nil {
		return err
	}
	defer t.Close()
	if err := a.notHome(t, id, "now.md"); err != nil {
		return err
	}
	n, err := agentctx.WriteNow(t, id, body)
	if err != nil {
		return err
	}
	a.markHome(id)
	_, err = fmt.Fprintf(a.stdout, "wrote %d bytes to %s\n", n, filepath.Join(a.root(), id, "context", "now.md"))
	return err
}
