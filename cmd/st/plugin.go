package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// runPlugin runs st-<verb> or smalltalk-<verb> from PATH with rest, the
// same streams and environment (plus _ST_INVOKED_AS). ok is false when no
// plugin exists; code is its exit status, 1 when it was killed or failed
// to start.
func (a *app) runPlugin(verb string, rest []string) (code int, ok bool) {
	path := findPlugin(a.env.Get("PATH"), verb)
	if path == "" {
		return 0, false
	}
	cmd := exec.Command(path, rest...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = a.stdin, a.stdout, a.stderr
	cmd.Env = os.Environ()
	if a.env.Get("_ST_INVOKED_AS") == "" {
		cmd.Env = append(cmd.Env, "_ST_INVOKED_AS="+a.name)
	}
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, true
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode(), true
	default:
		return 1, true
	}
}

// findPlugin searches every PATH entry for st-<verb>, then every entry
// again for smalltalk-<verb>: a regular file with an execute bit.
func findPlugin(pathEnv, verb string) string {
	if pathEnv == "" || strings.ContainsAny(verb, "/\\") {
		return ""
	}
	dirs := filepath.SplitList(pathEnv)
	for _, prefix := range []string{"st-", "smalltalk-"} {
		for _, dir := range dirs {
			if dir == "" {
				continue
			}
			p := filepath.Join(dir, prefix+verb)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p
			}
		}
	}
	return ""
}
