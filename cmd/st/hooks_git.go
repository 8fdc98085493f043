package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/wiring"
)

// gitFamily is `st hooks install --for git`: the reservation guard as the
// repository's pre-commit hook.
const gitFamily = "git"

// changeGitGuard installs or uninstalls the pre-commit guard of the git
// repository in the working folder.
func (a *app) changeGitGuard(install, dryRun bool) error {
	dir, err := gitHooksDir()
	if err != nil {
		return err
	}
	if dryRun {
		if install {
			if _, err := a.stdout.Write(wiring.GitGuardScript(a.selfPath())); err != nil {
				return err
			}
		}
		fmt.Fprintf(a.stderr, "%s hooks: dry run — %s not changed\n", a.name, filepath.Join(dir, "pre-commit"))
		return nil
	}
	var msg string
	if install {
		msg, err = wiring.InstallGitGuard(dir, a.selfPath())
	} else {
		msg, err = wiring.UninstallGitGuard(dir)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(a.stdout, msg)
	return err
}

// gitHooksDir asks git where the working folder's repository keeps its
// hooks (core.hooksPath and worktrees included), as an absolute path.
func gitHooksDir() (string, error) {
	cmd := exec.Command("git", "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", sterr.Msg("--for git needs a git repository here: %s", msg)
	}
	return strings.TrimSpace(string(out)), nil
}
