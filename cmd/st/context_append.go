package main

import (
	"fmt"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

type contextAppendCmd struct {
	Decision *string `placeholder:"TEXT" missing:"--decision requires a value" help:"what was decided, one line (required)"`
	Why      *string `placeholder:"TEXT" missing:"--why requires a value" help:"the reason, one line (required)"`
	Agent    string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose decisions/ (default: $ST_AGENT)"`
}

func (c *contextAppendCmd) Run(a *app) error {
	if c.Decision == nil {
		return sterr.Msg("--decision <text> is required")
	}
	if c.Why == nil {
		return sterr.Msg("--why <text> is required")
	}
	id, err := a.resolve(c.Agent, layout.Strict)
	if err != nil {
		return err
	}
	if _, _, err := agentctx.CheckDecision(*c.Decision, *c.Why); err != nil {
		return err
	}
	t, err := a.writableTree()
	if err != nil {
		return err
	}
	defer t.Close()
	e, err := agentctx.Append(t, id, *c.Decision, *c.Why, a.now())
	if err != nil {
		return err
	}
	a.markHome(id)
	_, err = fmt.Fprintln(a.stdout, e.Line)
	return err
}
