package main

import "github.com/smalltalk-go/st/hooks"

// hookGitPreCommitCmd is the git pre-commit guard (issue 19), loose like
// the other hooks.
type hookGitPreCommitCmd struct{}

func (c *hookGitPreCommitCmd) Run(a *app) error {
	return a.runHook(hooks.GitPreCommit, hooks.Options{})
}
func (c *hookGitPreCommitCmd) help(a *app) string { return hookUsage(a) }
