package main

import (
	"github.com/smalltalk-go/st/hooks"
)

// The hooks beyond session boundaries. Each is loose like the
// others: unknown flags and extra arguments are ignored.
type (
	hookUserPromptSubmitCmd   struct{}
	hookSubagentStartCmd      struct{}
	hookSubagentStopCmd       struct{}
	hookPreToolUseCmd         struct{}
	hookPostToolUseCmd        struct{}
	hookPostToolUseFailureCmd struct{}
	hookNotificationCmd       struct{}
	hookStopCmd               struct {
		Timestamp bool `help:"print the local time as a systemMessage"`
	}
	hookSessionEndCmd struct{}
)

func (c *hookUserPromptSubmitCmd) Run(a *app) error {
	return a.runHook(hooks.UserPromptSubmit, hooks.Options{})
}
func (c *hookSubagentStartCmd) Run(a *app) error {
	return a.runHook(hooks.SubagentStart, hooks.Options{})
}
func (c *hookSubagentStopCmd) Run(a *app) error {
	return a.runHook(hooks.SubagentStop, hooks.Options{})
}
func (c *hookPreToolUseCmd) Run(a *app) error  { return a.runHook(hooks.PreToolUse, hooks.Options{}) }
func (c *hookPostToolUseCmd) Run(a *app) error { return a.runHook(hooks.PostToolUse, hooks.Options{}) }
func (c *hookPostToolUseFailureCmd) Run(a *app) error {
	return a.runHook(hooks.PostToolUseFailure, hooks.Options{})
}
func (c *hookNotificationCmd) Run(a *app) error {
	return a.runHook(hooks.Notification, hooks.Options{})
}
func (c *hookStopCmd) Run(a *app) error {
	return a.runHook(hooks.Stop, hooks.Options{Timestamp: c.Timestamp})
}
func (c *hookSessionEndCmd) Run(a *app) error { return a.runHook(hooks.SessionEnd, hooks.Options{}) }

func (hookUserPromptSubmitCmd) examples() []example   { return hookExamples("user-prompt-submit") }
func (hookSubagentStartCmd) examples() []example      { return hookExamples("subagent-start") }
func (hookSubagentStopCmd) examples() []example       { return hookExamples("subagent-stop") }
func (hookPreToolUseCmd) examples() []example         { return hookExamples("pre-tool-use") }
func (hookPostToolUseCmd) examples() []example        { return hookExamples("post-tool-use") }
func (hookPostToolUseFailureCmd) examples() []example { return hookExamples("post-tool-use-failure") }
func (hookNotificationCmd) examples() []example       { return hookExamples("notification") }
func (hookStopCmd) examples() []example               { return hookExamples("stop --timestamp") }
func (hookSessionEndCmd) examples() []example         { return hookExamples("session-end") }
