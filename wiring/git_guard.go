package wiring

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

// Families lists the families `st hooks path --for` accepts.
var Families = []string{hooks.ClaudeCode, hooks.Codex, hooks.Gemini, hooks.Pi}

// gitGuardMark is in every pre-commit hook st writes; a hook without it
// is someone else's.
const gitGuardMark = "# st reservation guard"

// chainedSuffix is the name the hook st replaced gets beside st's.
const chainedSuffix = ".st-chained"

// GitGuardScript is st's pre-commit hook: the guard, then the hook it
// replaced, if any, under that hook's own name. Dispatchers such as
// husky's read the hook's name and folder from $0 (husky v9's
// .husky/_/pre-commit sources "$(dirname "$0")/h", which runs
// .husky/"$(basename "$0")"), so the chained file cannot simply be
// executed: its $0 would be pre-commit.st-chained. A POSIX sh cannot set
// argv[0] (and a script's $0 is its path whatever argv[0] says), so a
// shell script is sourced by its own shell started with -c, whose $0 is
// the name git ran; a hook in another language is executed as it is.
func GitGuardScript(stBin string) []byte {
	return fmt.Appendf(nil, `#!/bin/sh
%s: refuses a commit touching another agent's exclusive
# reservation (st reserve). Installed by `+"`st hooks install --for git`"+`;
# `+"`st hooks uninstall --for git`"+` removes it and puts back the hook it chains.
# Skip it for one commit with: git commit --no-verify
%s hook %s || exit $?
# The hook this one replaced, kept as $0%s, runs under the name git
# ran ($0): a shell script is sourced by its shell, anything else executed.
c="$0%s"
[ -x "$c" ] || exit 0
l=
IFS= read -r l < "$c" || :
case $l in
'#!/usr/bin/env '*) l=${l#'#!/usr/bin/env '} ;;
'#!'*) l=${l#'#!'} ;;
*) l=/bin/sh ;; # no #! line: git runs it with /bin/sh
esac
l=${l#"${l%%%%[! ]*}"}
i=${l%%%% *} o=
[ "$i" = "$l" ] || o=${l#* }
set -f
case ${i##*/} in
sh | bash | dash | ksh | mksh | ash) exec "$i" $o -c 'case $0 in */*) . "$0%s" ;; *) . "./$0%s" ;; esac' "$0" "$@" ;;
zsh) exec "$i" $o -c 'setopt no_function_argzero; case $0 in */*) . "$0%s" ;; *) . "./$0%s" ;; esac' "$0" "$@" ;;
esac
exec "$c" "$@"
`, gitGuardMark, ShellQuote(stBin), hooks.GitPreCommit, chainedSuffix, chainedSuffix,
		chainedSuffix, chainedSuffix, chainedSuffix, chainedSuffix)
}

// InstallGitGuard writes st's pre-commit hook into the hooks folder dir
// (git rev-parse --git-path hooks), moving an existing foreign hook
// aside to pre-commit.st-chained, which st's hook runs after the guard.
// It returns what it did, for the user.
func InstallGitGuard(dir, stBin string) (string, error) {
	t, err := fsutil.OpenOrCreate(dir)
	if err != nil {
		return "", err
	}
	defer t.Close()
	script := GitGuardScript(stBin)
	old, _, err := t.ReadRegular("pre-commit")
	switch {
	case err == nil && bytes.Equal(old, script):
		return dir + "/pre-commit already has st's guard — no changes.", nil
	case err == nil && bytes.Contains(old, []byte(gitGuardMark)):
		// An older st guard: replace it, keep what it chains.
	case err == nil:
		if _, err := t.Lstat("pre-commit" + chainedSuffix); err == nil {
			return "", sterr.Msg("%s/pre-commit%s exists already: move it away first", dir, chainedSuffix)
		}
		if err := t.MoveNoReplace("pre-commit", "pre-commit"+chainedSuffix); err != nil {
			return "", err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	if err := t.WriteAtomic("pre-commit", script); err != nil {
		return "", err
	}
	if err := t.Chmod("pre-commit", 0o755); err != nil {
		return "", err
	}
	msg := "installed st's reservation guard as " + dir + "/pre-commit"
	if _, err := t.Lstat("pre-commit" + chainedSuffix); err == nil {
		msg += " (it runs the previous hook, kept as pre-commit" + chainedSuffix + ")"
	}
	return msg, nil
}

// UninstallGitGuard removes st's pre-commit hook from dir and puts back
// the hook it chained, if any.
func UninstallGitGuard(dir string) (string, error) {
	t, err := fsutil.Open(dir)
	if err != nil {
		return dir + " has no st guard — no changes.", nil
	}
	defer t.Close()
	old, _, err := t.ReadRegular("pre-commit")
	if err != nil || !bytes.Contains(old, []byte(gitGuardMark)) {
		return dir + "/pre-commit is not st's guard — no changes.", nil
	}
	if err := t.Remove("pre-commit"); err != nil {
		return "", err
	}
	if _, err := t.Lstat("pre-commit" + chainedSuffix); err != nil {
		return "removed st's reservation guard from " + dir, nil
	}
	if err := t.MoveNoReplace("pre-commit"+chainedSuffix, "pre-commit"); err != nil {
		return "", err
	}
	return "removed st's reservation guard from " + dir + " and restored the previous pre-commit hook", nil
}
