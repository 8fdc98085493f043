package main

import (
	"fmt"
	"io"
	"path/filepath"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
)

type contextWriteCmd struct {
	Agent string `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose now.md (default: $ST_AGENT)"`
}

func (c *contextWriteCmd) Run(a *app) error {
	// Read one byte past the maximum: a bigger now.md is refused without
	// holding all of it (the hooks and the MCP tools read no more anyway).
	limit := a.env.MaxMessageBytes()
	body, err := io.ReadAll(io.LimitReader(a.stdin, limit+1))
	if err != nil {
		return err
	}
	if int64(len(body)) > limit {
		return layout.ErrTooLarge("now.md", -1, limit)
	}
	id, t, err := a.openAgentWritable(c.Agent, layout.Strict)
	if err != nil {
		return err
	}
	defer t.Close()
	n, err := agentctx.WriteNow(t, id, body)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(a.stdout, "wrote %d bytes to %s\n", n, filepath.Join(a.root(), id, "context", "now.md"))
	return err
}
