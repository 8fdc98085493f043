package main

import (
	"github.com/smalltalk-go/st/hooks"
)

// The hooks beyond session boundaries (issue 6). Each is loose like the
// others: unknown flags and extra arguments are ignored.
type (
	hookUserPromptSubmitCmd   struct{}
	hookSubagentStartCmd      struct{}
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

func (c *hookUserPromptSubmitCmd) help(a *app) string   { return hookUsage(a) }
func (c *hookSubagentStartCmd) help(a *app) string      { return hookUsage(a) }
func (c *hookPreToolUseCmd) help(a *app) string         { return hookUsage(a) }
func (c *hookPostToolUseCmd) help(a *app) string        { return hookUsage(a) }
func (c *hookPostToolUseFailureCmd) help(a *app) string { return hookUsage(a) }
func (c *hookNotificationCmd) help(a *app) string       { return hookUsage(a) }
func (c *hookStopCmd) help(a *app) string               { return hookUsage(a) }
func (c *hookSessionEndCmd) help(a *app) string         { return hookUsage(a) }

// hookEventsUsage is the usage block of these events (after the
// session-boundary ones).
const hookEventsUsage = `  user-prompt-submit    Claude Code UserPromptSubmit: context-fill and flush reminders
  subagent-start        Claude Code SubagentStart: the subagent report contract
  pre-tool-use          Claude Code PreToolUse: reservations, deny rules, large-Read advisory
  post-tool-use         Claude Code PostToolUse: event log
  post-tool-use-failure Claude Code PostToolUseFailure: thrash detection
  notification          Claude Code Notification: tell the operator who waits
  stop [--timestamp]    Claude Code Stop: inbox arrivals since the last check (--timestamp: local time)
  session-end           Claude Code SessionEnd: status offline
  stop-failure --retry  also retry transient API errors with backoff (asyncRewake)
  git-pre-commit        git pre-commit: refuse commits touching another agent's reservation
                        (installed by ` + "`st hooks install --for git`" + `)
`
