package main

import "github.com/smalltalk-go/st/hooks"

// hookGitPreCommitCmd is the git pre-commit guard, loose like
// the other hooks.
type hookGitPreCommitCmd struct{}

func (c *hookGitPreCommitCmd) Run(a *app) error {
	return a.runHook(hooks.GitPreCommit, hooks.Options{})
}

// Help is git-pre-commit's paragraph.
func (hookGitPreCommitCmd) Help() string {
	return `git runs this as the repository's pre-commit hook once "{NAME} hooks
install --for git" has written it: it refuses (exit 1) a commit staging a path
under another agent's exclusive reservation, naming the holder. Without an
agent every agent's reservation counts; anything it cannot find out lets the
commit pass. git commit --no-verify skips it.`
}

func (hookGitPreCommitCmd) examples() []example {
	return []example{
		{"what git runs before a commit", "st hook git-pre-commit"},
		{"wire it into the repository here", "st hooks install --for git"},
	}
}
