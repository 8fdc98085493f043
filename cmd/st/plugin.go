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
	cmd.Env = a.childEnv()
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

// childEnv is the environment of a program st runs on its behalf: st's
// own, plus _ST_INVOKED_AS so it names itself as st was named.
func (a *app) childEnv() []string {
	env := os.Environ()
	if a.env.Get("_ST_INVOKED_AS") == "" {
		env = append(env, "_ST_INVOKED_AS="+a.name)
	}
	return env
}

// companion finds the program name next to the running st, else in PATH;
// "" when there is none.
func (a *app) companion(name string) string {
	if p := filepath.Join(filepath.Dir(a.selfPath()), name); isExecutable(p) {
		return p
	}
	return searchPath(a.env.Get("PATH"), name)
}

// findPlugin searches every PATH entry for st-<verb>, then every entry
// again for smalltalk-<verb>.
func findPlugin(pathEnv, verb string) string {
	if strings.ContainsAny(verb, "/\\") {
		return ""
	}
	if p := searchPath(pathEnv, "st-"+verb); p != "" {
		return p
	}
	return searchPath(pathEnv, "smalltalk-"+verb)
}

// searchPath returns the first PATH entry's name that is a regular file
// with an execute bit, made absolute; "" when there is none.
func searchPath(pathEnv, name string) string {
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			continue
		}
		if p := filepath.Join(dir, name); isExecutable(p) {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
		}
	}
	return ""
}
