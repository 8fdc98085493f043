package main

import (
	"os"
	"path/filepath"
	"strings"
)

// selfPath is the absolute path of the running st as invoked: argv[0]
// made absolute when it holds a slash, else looked up in $PATH the way
// the shell found it; symlinks are not resolved, so a config written
// with it keeps working across upgrades of the link's target. It falls
// back to os.Executable.
func (a *app) selfPath() string {
	if a.argv0 != "" {
		if strings.Contains(a.argv0, "/") {
			if abs, err := filepath.Abs(a.argv0); err == nil && isExecutable(abs) {
				return abs
			}
		} else {
			for _, dir := range filepath.SplitList(a.env.Get("PATH")) {
				if dir == "" {
					continue
				}
				p := filepath.Join(dir, a.argv0)
				if !isExecutable(p) {
					continue
				}
				if abs, err := filepath.Abs(p); err == nil {
					return abs
				}
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return a.argv0
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
