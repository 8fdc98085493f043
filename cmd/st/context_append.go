package main

import (
	"fmt"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

type contextAppendCmd struct {
	Decision *string `missing:"--decision requires a value" help:"the decision, one line"`
	Why      *string `missing:"--why requires a value" help:"why, one line"`
	Agent    string  `arg:"" optional:"" help:"agent"`
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
	_, err = fmt.Fprintln(a.stdout, e.Line)
	return err
}
